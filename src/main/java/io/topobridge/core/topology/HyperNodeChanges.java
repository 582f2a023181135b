package io.topobridge.core.topology;

import io.topobridge.volcano.model.HyperNodeSpec;
import io.topobridge.volcano.model.MemberSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Orders the writes that turn the bridge's current HyperNodes into the desired ones so that no member is ever
 * listed by two HyperNodes in between: a member that moves is first dropped where it was (by an update, or
 * by deleting a HyperNode that is no longer wanted) and only then added where it goes. Nor is a HyperNode deleted
 * while another lists it: Volcano's scheduler keeps it among that parent's children and panics on it in a later
 * session. A HyperNode that gives away moving members or lists one deleted is first written without them (current
 * ∩ desired, less the deleted) and written in full afterwards; one with no such version (every member changes or
 * goes) is deleted and created again, which its own parent then answers the same way. Whether a write is needed at
 * all is the applier's decision; this only orders them.
 */
public final class HyperNodeChanges {

    /** One write: apply a HyperNode, or delete one by name. */
    public sealed interface Step permits Apply, Delete {}

    /** Apply this HyperNode ({@code intermediate}: a transitional version, the final one follows). */
    public record Apply(DesiredHyperNode hyperNode, boolean intermediate) implements Step {}

    public record Delete(String name) implements Step {}

    /**
     * @param desired every HyperNode the bridge wants
     * @param current the specs of the bridge's HyperNodes that exist now, by name (a null spec counts as empty)
     */
    public static List<Step> plan(List<DesiredHyperNode> desired, Map<String, HyperNodeSpec> current) {
        Set<String> desiredNames = desired.stream().map(DesiredHyperNode::name).collect(Collectors.toSet());

        // members that leave some HyperNode and join another in this change
        Set<String> lost = new HashSet<>();
        Set<String> gained = new HashSet<>();
        for (DesiredHyperNode d : desired) {
            Set<String> before = members(current.get(d.name()));
            Set<String> after = members(d.spec());
            after.stream().filter(m -> !before.contains(m)).forEach(gained::add);
            before.stream().filter(m -> !after.contains(m)).forEach(lost::add);
        }
        current.forEach((name, spec) -> {
            if (!desiredNames.contains(name)) {
                lost.addAll(members(spec));
            }
        });
        Set<String> moving = new HashSet<>(lost);
        moving.retainAll(gained);

        List<DesiredHyperNode> ordered = new ArrayList<>(desired);
        ordered.sort(
                Comparator.comparing((DesiredHyperNode d) -> tierOf(d.spec())).thenComparing(DesiredHyperNode::name));
        List<Step> first;
        List<Step> last;
        Set<String> recreated = new HashSet<>();
        int known;
        do {
            known = recreated.size();
            // the HyperNodes deleted: each is dropped by whoever lists it before it goes
            Set<String> gone = current.keySet().stream()
                    .filter(n -> !desiredNames.contains(n) || recreated.contains(n))
                    .map(n -> MemberSpec.TypeEnum.HYPER_NODE + "/" + n)
                    .collect(Collectors.toSet());
            first = new ArrayList<>();
            last = new ArrayList<>();
            for (DesiredHyperNode d : ordered) {
                HyperNodeSpec spec = current.get(d.name());
                Set<String> before = members(spec);
                Set<String> after = members(d.spec());
                if (spec != null
                        && !recreated.contains(d.name())
                        && before.stream()
                                .anyMatch(m -> gone.contains(m) || moving.contains(m) && !after.contains(m))) {
                    List<MemberSpec> kept = d.spec().getMembers().stream()
                            .filter(m -> before.contains(key(m)) && !gone.contains(key(m)))
                            .toList();
                    if (kept.size() == d.spec().getMembers().size()) {
                        first.add(new Apply(d, false));
                        continue;
                    } else if (kept.isEmpty()) {
                        // every member changes: there is no valid in-between version, so it goes and comes back
                        recreated.add(d.name());
                    } else {
                        HyperNodeSpec interim = new HyperNodeSpec()
                                .tier(d.spec().getTier())
                                .tierName(d.spec().getTierName())
                                .members(new ArrayList<>(kept));
                        first.add(new Apply(new DesiredHyperNode(d.name(), d.labels(), interim), true));
                    }
                }
                last.add(new Apply(d, false));
            }
        } while (recreated.size() > known);
        List<String> deleted = current.keySet().stream()
                .filter(n -> !desiredNames.contains(n) || recreated.contains(n))
                .sorted(Comparator.comparing((String n) -> -tierOf(current.get(n)))
                        .thenComparing(n -> n))
                .toList();

        List<Step> steps = new ArrayList<>(first);
        deleted.forEach(n -> steps.add(new Delete(n)));
        steps.addAll(last);
        return List.copyOf(steps);
    }

    private static int tierOf(HyperNodeSpec spec) {
        return spec == null || spec.getTier() == null ? 0 : spec.getTier();
    }

    /** Members as {@code type/name}, so a Node and a HyperNode of the same name stay apart. */
    static Set<String> members(HyperNodeSpec spec) {
        return spec == null || spec.getMembers() == null
                ? new LinkedHashSet<>()
                : spec.getMembers().stream()
                        .map(HyperNodeChanges::key)
                        .filter(Objects::nonNull)
                        .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static String key(MemberSpec m) {
        if (m == null || m.getSelector() == null || m.getSelector().getExactMatch() == null) {
            return null;
        }
        return Objects.toString(m.getType()) + "/"
                + m.getSelector().getExactMatch().getName();
    }
}
