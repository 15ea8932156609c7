// libFuzzer harness: SimGrid XML platforms (platforms/simgrid/simgrid_platform.hpp load_xml_platform, which loads the
// file in a forked child: SimGrid may abort). The input is written to a file of this process; io host "io". Seeded
// with platforms/examples.
#include "fuzz/fuzz_common.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <csignal>
#include <fstream>
#include <pthread.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  static const std::string file = "/tmp/pipesim-fuzz-" + std::to_string(::getpid()) + ".xml";
  // A SimGrid abort in the loading child is an InputError of the parent (load_xml_platform), not a finding: the child
  // must not run libFuzzer's crash handler (which would save the input as a crash and print a report).
  static const int reset = ::pthread_atfork(nullptr, nullptr, [] { std::signal(SIGABRT, SIG_DFL); });
  (void)reset;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  SourceMap sources; // the io hosts, as `pipesim platform info FILE` locates them
  sources.add_file("platform", file);
  return fuzz::guarded(file, [&] { with_sources(sources, [&] { load_xml_platform(file, "io", "io"); }); });
}
