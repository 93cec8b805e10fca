# SPDX-License-Identifier: Apache-2.0
# Writes OUT: a C++ file defining ts::kernel::lowerKernelScript() as the text of IN.
file(READ ${IN} text)
set(delim "TSPY")
file(WRITE ${OUT} "// Generated from ${IN}; do not edit.\n#include \"tilescope/kernel/lowering.h\"\n"
  "namespace ts::kernel {\nconst std::string& lowerKernelScript() {\n"
  "    static const std::string s = R\"${delim}(${text})${delim}\";\n    return s;\n}\n}\n")
