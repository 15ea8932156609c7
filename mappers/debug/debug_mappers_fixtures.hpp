// Test-only mappers that misbehave on purpose (debug.abort, debug.sleep), registered on demand by the tests that need
// them and by the test build of the command line (pipesim_testing): they are not in the user-facing registry.
#pragma once

namespace pipesim {

/// Adds `debug.abort` (aborts the process: a crashing worker) and `debug.sleep` (sleeps for
/// MapperOptions::time_limit seconds, then returns the whole pipeline on the first processor: a hanging worker when
/// the campaign's per-run limit is shorter) to MapperRegistry::instance(). Calling it again does nothing.
void register_debug_mappers();

} // namespace pipesim
