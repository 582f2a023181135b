package io.topobridge.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.syntax.elements.ClassesShould;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The core (topology building, annotation parsing, workload translation, admission, render) is plain Java:
 * no Kubernetes client, CDI, Quarkus, Operator SDK or metrics, and no wall clock. Only the edges talk to the world.
 */
class CorePurityTest {

    private static final JavaClasses imported = ProductionClasses.all();

    /** The start of a rule that no class of the core may break. */
    private static ClassesShould noCoreClassShould() {
        return noClasses().that().resideInAPackage("io.topobridge.core..").should();
    }

    @Test
    void coreUsesNoClientCdiOrFramework() {
        noCoreClassShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.fabric8.kubernetes.client..",
                        "jakarta.enterprise..",
                        "jakarta.inject..",
                        "io.quarkus..",
                        "io.javaoperatorsdk..",
                        "io.micrometer..",
                        "io.vertx..",
                        "jakarta.ws.rs..",
                        "org.jboss.logging..")
                .because("the core is a pure function of its inputs (see DESIGN.md, 'Shape of the system')")
                .check(imported);
    }

    @Test
    void coreDoesNotReachIntoTheEdges() {
        noCoreClassShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.topobridge.controller..",
                        "io.topobridge.apply..",
                        "io.topobridge.webhook..",
                        "io.topobridge.cli..",
                        "io.topobridge.config..",
                        "io.topobridge.findings..",
                        "io.topobridge.devcluster..",
                        "io.topobridge.api..",
                        "io.topobridge.tls..")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.topobridge.volcano.PodGroup")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.topobridge.volcano.HyperNode")
                .check(imported);
    }

    @Test
    void coreDependsOnlyOnTheCoreAndTheModelLibraries() {
        classes()
                .that()
                .resideInAPackage("io.topobridge.core..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.topobridge.core..",
                        "io.topobridge.volcano.model..",
                        "io.fabric8.kubernetes.api.model..",
                        "com.fasterxml.jackson..",
                        "java..")
                .because("the core reads and writes Kubernetes objects as values (the fabric8 and generated Volcano"
                        + " models, JSON trees) and needs nothing else from the world")
                .check(imported);
    }

    @Test
    void coreReadsNoWallClock() {
        noCoreClassShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .because("time is a parameter of the core (a reconcile pass's time, the translator's clock), so every"
                        + " timing case is a unit test on a fixed time")
                .check(imported);
    }
}
