package io.topobridge.volcano;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.topobridge.core.VolcanoApi;
import io.topobridge.volcano.model.QueueSpec;
import io.topobridge.volcano.model.QueueStatus;

/** Volcano Queue ({@code scheduling.volcano.sh/v1beta1}), cluster scoped; read only. */
@Group(VolcanoApi.SCHEDULING_GROUP)
@Version(VolcanoApi.SCHEDULING_VERSION)
@Kind("Queue")
@Plural("queues")
public class Queue extends CustomResource<QueueSpec, QueueStatus> {}
