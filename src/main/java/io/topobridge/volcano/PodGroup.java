package io.topobridge.volcano;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.topobridge.core.VolcanoApi;
import io.topobridge.core.workload.PodGroupWithSpec;
import io.topobridge.volcano.model.PodGroupSpec;
import io.topobridge.volcano.model.PodGroupStatus;

/** Volcano PodGroup ({@code scheduling.volcano.sh/v1beta1}), typed with the generated models. */
@Group(VolcanoApi.SCHEDULING_GROUP)
@Version(VolcanoApi.SCHEDULING_VERSION)
@Kind("PodGroup")
@Plural("podgroups")
public class PodGroup extends CustomResource<PodGroupSpec, PodGroupStatus> implements Namespaced, PodGroupWithSpec {}
