package io.topobridge.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kubernetes' toleration matching, case by case: operator, empty key, effect, value. */
class TolerationTest {

    record Case(String name, Toleration toleration, Taint taint, boolean tolerates) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Taint GPU = new Taint("nvidia.com/gpu", "present", "NoSchedule");
    static final Taint GPU_NO_VALUE = new Taint("nvidia.com/gpu", "", "NoSchedule");
    static final Taint DRAIN = new Taint("maintenance", "true", "NoExecute");

    static Stream<Case> cases() {
        return Stream.of(
                new Case("Exists on the key, any value", new Toleration("nvidia.com/gpu", "Exists", "", ""), GPU, true),
                new Case(
                        "Exists on the key with the same effect",
                        new Toleration("nvidia.com/gpu", "Exists", "", "NoSchedule"),
                        GPU,
                        true),
                new Case(
                        "Exists on the key with another effect",
                        new Toleration("nvidia.com/gpu", "Exists", "", "NoExecute"),
                        GPU,
                        false),
                new Case("Exists on another key", new Toleration("amd.com/gpu", "Exists", "", ""), GPU, false),
                new Case(
                        "empty key with Exists tolerates everything",
                        new Toleration("", "Exists", "", ""),
                        DRAIN,
                        true),
                new Case(
                        "empty key with Exists and an effect: that effect only",
                        new Toleration("", "Exists", "", "NoSchedule"),
                        DRAIN,
                        false),
                new Case(
                        "Equal with the same value",
                        new Toleration("nvidia.com/gpu", "Equal", "present", "NoSchedule"),
                        GPU,
                        true),
                new Case(
                        "Equal with another value",
                        new Toleration("nvidia.com/gpu", "Equal", "absent", "NoSchedule"),
                        GPU,
                        false),
                new Case("no operator means Equal", new Toleration("nvidia.com/gpu", null, "present", null), GPU, true),
                new Case(
                        "no operator and no value match a taint without a value",
                        new Toleration("nvidia.com/gpu", null, null, null),
                        GPU_NO_VALUE,
                        true),
                new Case(
                        "no operator and no value do not match a taint with one",
                        new Toleration("nvidia.com/gpu", null, null, null),
                        GPU,
                        false),
                new Case(
                        "an operator Kubernetes does not know tolerates nothing",
                        new Toleration("nvidia.com/gpu", "Gt", "1", ""),
                        GPU,
                        false),
                new Case(
                        "NoExecute with tolerationSeconds still lets the pod be placed",
                        new Toleration("maintenance", "Exists", "", "NoExecute"),
                        DRAIN,
                        true),
                new Case(
                        "what ExtendedResourceToleration adds tolerates the resource's NoSchedule taint",
                        Toleration.forExtendedResource("nvidia.com/gpu"),
                        GPU,
                        true),
                new Case(
                        "but not its NoExecute taint",
                        Toleration.forExtendedResource("nvidia.com/gpu"),
                        new Taint("nvidia.com/gpu", "present", "NoExecute"),
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesAsKubernetesDoes(Case c) {
        assertThat(c.toleration().tolerates(c.taint())).as(c.name()).isEqualTo(c.tolerates());
    }

    record StateCase(String name, NodeState state, List<Toleration> tolerations, boolean takes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<StateCase> states() {
        List<Toleration> none = List.of();
        return Stream.of(
                new StateCase("an open node", NodeState.SCHEDULABLE, none, true),
                new StateCase("cordoned", new NodeState(true, "True", List.of()), none, false),
                new StateCase(
                        "cordoned, whatever the pod tolerates",
                        new NodeState(true, "True", List.of()),
                        List.of(new Toleration("", "Exists", "", "")),
                        false),
                new StateCase("Ready=False", new NodeState(false, "False", List.of()), none, false),
                new StateCase(
                        "Ready=Unknown (its kubelet is lost)", new NodeState(false, "Unknown", List.of()), none, false),
                new StateCase("no Ready condition reported", new NodeState(false, null, List.of()), none, true),
                new StateCase(
                        "a NoSchedule taint not tolerated", new NodeState(false, "True", List.of(GPU)), none, false),
                new StateCase(
                        "a NoSchedule taint tolerated",
                        new NodeState(false, "True", List.of(GPU)),
                        List.of(new Toleration("nvidia.com/gpu", "Exists", "", "")),
                        true),
                new StateCase(
                        "PreferNoSchedule does not keep pods off",
                        new NodeState(false, "True", List.of(new Taint("spot", "true", "PreferNoSchedule"))),
                        none,
                        true),
                new StateCase(
                        "one of two taints not tolerated",
                        new NodeState(false, "True", List.of(GPU, DRAIN)),
                        List.of(new Toleration("nvidia.com/gpu", "Exists", "", "")),
                        false),
                new StateCase(
                        "a pod requesting the GPU passes the GPU taint (ExtendedResourceToleration)",
                        new NodeState(false, "True", List.of(GPU)),
                        Toleration.forPod(List.of(), List.of("nvidia.com/gpu", "cpu")),
                        true),
                new StateCase(
                        "a pod requesting CPU only does not",
                        new NodeState(false, "True", List.of(GPU)),
                        Toleration.forPod(List.of(), List.of("cpu", "memory")),
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("states")
    void aNodeTakesAPodOnlyWhenOpenAndEveryTaintIsTolerated(StateCase c) {
        assertThat(!c.state().closed()
                        && c.state().taints().stream().allMatch(t -> Toleration.tolerated(c.tolerations(), t)))
                .as(c.name())
                .isEqualTo(c.takes());
    }
}
