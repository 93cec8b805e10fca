// SPDX-License-Identifier: Apache-2.0
// The GUI tests' shared library (tests/CMakeLists.txt) is made of the static libraries' objects,
// linked whole; a library target needs one source of its own, and this is it.
namespace tstest {
int widgetsSharedLibrary = 0;
} // namespace tstest
