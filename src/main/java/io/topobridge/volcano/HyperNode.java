package io.topobridge.volcano;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.topobridge.core.VolcanoApi;
import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.HyperNodeStatus;

/** Volcano HyperNode ({@code topology.volcano.sh/v1alpha1}), cluster scoped. */
@Group(VolcanoApi.TOPOLOGY_GROUP)
@Version(VolcanoApi.TOPOLOGY_VERSION)
@Kind("HyperNode")
@Plural("hypernodes")
public class HyperNode extends CustomResource<HyperNodeSpec, HyperNodeStatus> {}
