// Gluon layouts that Triton converts to linear layouts for a tensor shape
// (LinearLayoutConversions.cpp in Triton): read here so their text can be pasted directly.
#include "interop_value.h"

namespace ts::interop {

linear::LinearLayout gluonLayout(Cursor& c, const Value& call, const std::vector<std::int64_t>&) {
    c.failAt(call.column, "'" + call.name +
                              "' is not converted by Tilescope yet; paste "
                              "ttgl.to_linear_layout(...)'s result (a DistributedLinearLayout)");
}

} // namespace ts::interop
