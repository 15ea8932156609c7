// libFuzzer harness: SimGrid XML platforms (platforms/simgrid/simgrid_platform.hpp load_xml_platform, which loads the
// file in a forked child: SimGrid may abort). The input is written to a file of this process; io host "io". Seeded
// with platforms/examples.
#include "fuzz/fuzz_common.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <fstream>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  using namespace pipesim;
  static const std::string file = "/tmp/pipesim-fuzz-" + std::to_string(::getpid()) + ".xml";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  return fuzz::guarded(file, [&] { load_xml_platform(file, "io", "io"); });
}
