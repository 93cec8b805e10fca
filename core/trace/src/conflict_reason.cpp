// SPDX-License-Identifier: Apache-2.0
// Why a conflict with equal layouts was raised, and the labels of a conflict's two sides (see
// conflict_reason.h). The wording follows TileLang 0.1.15's checks:
//  - T.Parallel: ParallelOpNode::ValidateCandidateAgainstFragments (src/op/parallel.cc) calls
//    ProveFragmentContains (src/layout/utils.cc) with the loop's variables for the loop layout
//    and the buffer's own index expressions in the loop body for the fragment, so the two
//    layouts are compared at different points whenever those indices are not the loop
//    variables in order; a written fragment is checked both ways.
//  - "Get different layout": LayoutNode/FragmentNode::IsEqual (src/layout/layout.cc) compare
//    the forward expressions with StructuralEqual, not their values.
//  - ReduceOp: ProveFragmentContains (src/op/reduce.cc) must prove the thread equality
//    symbolically; an analyzer that cannot prove it raises the conflict.
#include "tilescope/trace/conflict_reason.h"

namespace ts::dump {

std::string equalLayoutsReason(const Event& e) {
    switch (e.kind) {
    case EventKind::ParallelConflict: {
        const std::string frag = e.buffer.empty() ? std::string("the fragment") : e.buffer;
        return "The two layouts agree on every cell, yet TileLang raised the conflict: its "
               "T.Parallel check (ProveFragmentContains, from ValidateCandidateAgainstFragments "
               "in src/op/parallel.cc) does not compare the layouts as printed. For each loop "
               "iteration it takes the thread the loop layout gives that iteration and asks "
               "whether it holds the element of " +
               frag + " the loop body accesses, at " + frag +
               "'s own index expressions in the loop, which the log does not print. When " + frag +
               " is indexed by anything but the loop variables in order (transposed, shifted, "
               "a constant or a subset), equal layouts still put the iteration and its element "
               "on different threads; a written fragment is checked both ways. It also refuses "
               "when TVM's analyzer cannot prove the two threads equal. Look at how " +
               frag + " is indexed in the loop the source line points to.";
    }
    case EventKind::Conflict:
    case EventKind::AliasConflict:
        return "The two layouts agree on every cell, yet TileLang raised the conflict: it "
               "compares layouts by their expressions (IsEqual in src/layout/layout.cc, "
               "StructuralEqual on the index and thread expressions), not by their values, so "
               "two expressions that give the same cells (i % 8 * 4 and i * 4 % 32) are "
               "different layouts to it.";
    case EventKind::ReduceConflict:
        return "The two layouts agree on every cell, yet TileLang raised the conflict: its "
               "reduce check (ProveFragmentContains in src/op/reduce.cc) must prove "
               "symbolically that each thread holding an element in one layout holds it in the "
               "other, and raises the conflict when TVM's analyzer cannot prove it.";
    default:
        return {};
    }
}

std::string sideLabel(const Event& e, const DumpLayout& l) {
    std::string who = e.buffer;
    if (e.kind == EventKind::ParallelConflict && l.role == "loop")
        // "between C and y": C is the fragment checked, y the buffer the loop layout came from.
        return e.other.empty() ? "loop · T.Parallel" : "loop · T.Parallel (from " + e.other + ")";
    if (e.kind == EventKind::ReduceConflict && l.role == "src_layout" && !e.other.empty())
        who = e.other;
    return who.empty() ? l.role : l.role + " · " + who;
}

} // namespace ts::dump
