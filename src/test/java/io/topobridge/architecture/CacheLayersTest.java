package io.topobridge.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * The caches sit below the controllers: the reconcilers, diagnosis and admission read them, and they know none of
 * their readers. The process parts' lifecycle sits below both.
 */
class CacheLayersTest {

    private static final JavaClasses classes = ProductionClasses.all();

    @Test
    void cacheNeverDependsOnController() {
        noClasses()
                .that()
                .resideInAPackage("io.topobridge.cache..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.topobridge.controller..")
                .because("the controllers read the caches; a cache never reaches back up into a controller")
                .check(classes);
    }

    @Test
    void processPartsKnowNoPartOfTheBridge() {
        noClasses()
                .that()
                .resideInAPackage("io.topobridge.process..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.topobridge.cache..",
                        "io.topobridge.controller..",
                        "io.topobridge.diagnosis..",
                        "io.topobridge.webhook..",
                        "io.topobridge.api..")
                .because("every long-running part (caches, reconcilers, webhook) starts and stops the same way,"
                        + " below all of them")
                .check(classes);
    }
}
