package io.topobridge.architecture;

import static com.tngtech.archunit.lang.conditions.ArchConditions.accessFieldWhere;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.topobridge.core.expand.Controller;
import io.topobridge.core.expand.PodDefaulter;
import io.topobridge.core.workload.kind.KindAdapter;
import org.junit.jupiter.api.Test;

/**
 * The core's packages form layers (vocabulary, then annotations, gangs, the kind and expansion frameworks, one
 * folder per workload kind, the registry of kinds, translation, planning, admission, render): no package of the core
 * depends, even indirectly, on one that depends on it, and the workload core never reads diagnosis. The core never
 * touches the client-bound Volcano types, and no class decides by a {@code switch} on the workload kind: that
 * knowledge lives in the kind's own folder.
 */
class CoreLayersTest {

    private static final JavaClasses classes = ProductionClasses.all();

    /** Every package of the core is one slice (its root package included). */
    private static final SliceAssignment CORE_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            return pkg.equals("io.topobridge.core") || pkg.startsWith("io.topobridge.core.")
                    ? SliceIdentifier.of(pkg)
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "packages of io.topobridge.core";
        }
    };

    @Test
    void corePackagesAreFreeOfCycles() {
        slices().assignedFrom(CORE_PACKAGES)
                .should()
                .beFreeOfCycles()
                .because("the core's packages are layers, each depending only on those below it")
                .check(classes);
    }

    /** Every package of the whole tree is one slice. */
    private static final SliceAssignment ALL_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            return pkg.startsWith("io.topobridge") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "packages of io.topobridge";
        }
    };

    @Test
    void everyPackageIsFreeOfCycles() {
        slices().assignedFrom(ALL_PACKAGES)
                .should()
                .beFreeOfCycles()
                .because("the edges (controllers, webhooks, CLI, configuration, caches) depend on each other in one"
                        + " direction only, as the core's packages do")
                .check(classes);
    }

    /**
     * Every top folder is one slice, and under {@code core} every folder of the core: a folder's sub-packages sit with
     * it, as a reader of the tree sees them (a sub-package below a layer its parent stands above is a cycle here).
     */
    private static final String MODELS = "io.topobridge.volcano.model";

    private static final SliceAssignment FOLDERS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String[] parts = javaClass.getPackageName().split("\\.");
            // the generated Volcano models are a library beside the tree, as fabric8's are
            if (parts.length < 3
                    || !parts[1].equals("topobridge")
                    || javaClass.getPackageName().startsWith(MODELS)) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of(parts[2].equals("core") && parts.length > 3 ? "core." + parts[3] : parts[2]);
        }

        @Override
        public String getDescription() {
            return "folders of io.topobridge and of io.topobridge.core";
        }
    };

    @Test
    void foldersAreFreeOfCycles() {
        slices().assignedFrom(FOLDERS)
                .should()
                .beFreeOfCycles()
                .because("each folder of the tree stands above or below another as a whole, so the tree reads as its"
                        + " layers")
                .check(classes);
    }

    @Test
    void workloadCoreNeverReadsDiagnosis() {
        noClasses()
                .that()
                .resideInAPackage("io.topobridge.core.workload..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.topobridge.core.diagnosis..")
                .because("diagnosis reads the workload core, never the reverse: the room, nodes and gangs both need"
                        + " live below them in core.capacity")
                .check(classes);
    }

    @Test
    void coreUsesNoClientBoundVolcanoType() {
        noClasses()
                .that()
                .resideInAPackage("io.topobridge.core..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.topobridge.volcano")
                .because("io.topobridge.volcano holds the client-bound custom resources; the core speaks in its own "
                        + "desired objects and the generated spec models")
                .check(classes);
    }

    @Test
    void noClassSwitchesOnTheWorkloadKind() {
        // javac compiles a switch on an enum to a lookup in a synthetic $SwitchMap$<enum> field
        DescribedPredicate<JavaFieldAccess> switchOnKind = DescribedPredicate.describe(
                "a switch on WorkloadKind",
                access -> access.getTarget().getName().equals("$SwitchMap$io$topobridge$core$workload$WorkloadKind"));
        noClasses()
                .should(accessFieldWhere(switchOnKind))
                .because("what differs between workload kinds is said by the kind's own folder (core.kinds.<kind>)")
                .check(classes);
    }

    @Test
    void everyKindsClassesLiveInItsKindsFolder() {
        classes()
                .that()
                .implement(KindAdapter.class)
                .or()
                .areAssignableTo(Controller.class)
                .or()
                .implement(PodDefaulter.class)
                .and()
                .doNotHaveModifier(JavaModifier.ABSTRACT)
                .should()
                .resideInAPackage("io.topobridge.core.kinds.*")
                .because("a kind's adapter, the controllers render emulates for it and its pod webhooks live in one"
                        + " folder per kind, listed once in core.kinds.Kinds")
                .check(classes);
    }

    @Test
    void theFrameworksKnowNoKind() {
        noClasses()
                .that()
                .resideInAnyPackage("io.topobridge.core.workload..", "io.topobridge.core.expand")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.topobridge.core.kinds..")
                .because("the workload core and the expansion framework lie below the kinds' folders; the registry"
                        + " (core.kinds.Kinds) is handed to them by render and the edges")
                .check(classes);
    }
}
