package io.topobridge.core.workload.annotation;

import io.topobridge.volcano.model.NetworkTopologySpec;

/** {@code hard}: the gang waits until it fits; {@code soft}: best effort, never blocks. */
public enum TopologyMode {
    HARD,
    SOFT;

    public NetworkTopologySpec.ModeEnum volcano() {
        return this == HARD ? NetworkTopologySpec.ModeEnum.HARD : NetworkTopologySpec.ModeEnum.SOFT;
    }
}
