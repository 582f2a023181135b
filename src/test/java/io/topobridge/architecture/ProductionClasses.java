package io.topobridge.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The bridge's own classes, tests left out, imported once for every architecture rule. */
final class ProductionClasses {

    private ProductionClasses() {}

    /** Imported on first use (a class's static initialiser runs once). */
    private static final class Holder {
        static final JavaClasses CLASSES = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.topobridge");
    }

    static JavaClasses all() {
        return Holder.CLASSES;
    }
}
