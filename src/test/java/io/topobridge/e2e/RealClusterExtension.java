package io.topobridge.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives end-to-end tests the run's {@link RealCluster} (started by the first test that asks for it, stopped when
 * the test run ends) as a constructor or method parameter.
 */
public final class RealClusterExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RealCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(ExtensionContext.Namespace.create(RealClusterExtension.class))
                .getOrComputeIfAbsent("cluster", k -> new Stopper(RealCluster.get()), Stopper.class)
                .cluster();
    }

    /** Stops the cluster when JUnit closes the root store at the end of the run. */
    private record Stopper(RealCluster cluster) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            cluster.close();
        }
    }
}
