// pipesim_testing only: the command line with the test-only mappers registered (debug.sleep for the cluster tests).
#include "mappers/debug/debug_mappers_fixtures.hpp"

namespace {
const bool registered = [] {
  pipesim::register_debug_mappers();
  return true;
}();
} // namespace
