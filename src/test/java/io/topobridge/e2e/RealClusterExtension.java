package io.topobridge.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives end-to-end tests the JVM's {@link RealCluster} as a constructor or method parameter. It is started by the
 * first test that asks for it and stopped when the JVM exits (a shutdown hook), not when JUnit closes its root
 * context: a fork of the test run executes its classes one launcher request after the other, each with its own
 * root context, and they all share the fork's one cluster.
 */
public final class RealClusterExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RealCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster(context);
    }

    /** The fork's cluster, started on first use (also for other extensions). */
    static RealCluster cluster(ExtensionContext context) {
        return RealCluster.get();
    }
}
