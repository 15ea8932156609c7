// The example program runs on its own platform and measures the period eq. (1) predicts.
#include "base/external_program.hpp"

#include <gtest/gtest.h>
#include <string>

TEST(Examples, DeployOnOwnPlatformMeasuresEq1)
{
  pipesim::ProgramCall call;
  call.argv                = {EXAMPLE_EXECUTABLE, "--log=root.thresh:critical"};
  call.merge_stderr        = true;
  pipesim::ProgramResult r = pipesim::run_program(call);
  const std::string& out   = r.out;
  ASSERT_TRUE(r.ok()) << r.describe();
  double simulated = 0;
  double analytic  = 0;
  auto at          = out.find("simulated period ");
  ASSERT_NE(at, std::string::npos) << out;
  simulated = std::stod(out.substr(at + 17));
  at        = out.find("analytic period ");
  ASSERT_NE(at, std::string::npos) << out;
  analytic = std::stod(out.substr(at + 16));
  // mesh_latency.xml, mapping [1]:m1 [2]:m2 [3]:m3 [4]:m4. The bottleneck is m4 (hand computation):
  // receive 3e6 B over l_3_4 (25 MB/s, 2.5 ms) = 0.1225 s, compute 8e9 / 4e9 = 2 s, send 1e6 B to io over l_io_4
  // (50 MB/s, 3 ms) = 0.023 s: 2.1455 s.
  EXPECT_NEAR(analytic, 2.1455, 1e-9);
  EXPECT_NEAR(simulated, analytic, 1e-9 * analytic) << out;
}
