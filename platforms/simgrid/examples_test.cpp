// Loads the shipped example platforms (platforms/examples/*.xml) and checks their model against hand computations.
#include "base/input_error.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"

#include <gtest/gtest.h>

namespace pipesim {
namespace {

std::string example(const std::string& name) { return std::string(PIPESIM_SOURCE_DIR) + "/platforms/examples/" + name; }

int node(const Platform& platform, const std::string& name)
{
  if (auto u = platform.find(name)) return *u;
  throw std::out_of_range("no processor " + name);
}

std::vector<std::string> names(const Platform& platform)
{
  std::vector<std::string> out;
  for (const auto& proc : platform.processors())
    out.push_back(proc.name);
  return out;
}

TEST(ExamplePlatforms, Star)
{
  Platform platform = load_xml_platform(example("star.xml"), "io", "io");
  EXPECT_EQ(names(platform), (std::vector<std::string>{"cpu-1", "cpu-2", "cpu-3", "cpu-4", "cpu-5"}));
  EXPECT_EQ(platform.speed(node(platform, "cpu-3")), 3.5e9);
  EXPECT_EQ(platform.speed(node(platform, "cpu-4")), 5e8);
  const int c1 = node(platform, "cpu-1"), c2 = node(platform, "cpu-2"), c3 = node(platform, "cpu-3"),
            c4 = node(platform, "cpu-4"), c5 = node(platform, "cpu-5");
  // Every path is [l_u, l_v] through the router: b = min of the two, c = sum of the two.
  // cpu-1 -> cpu-3: l_1 (125 MB/s, 50 us), l_3 (62.5 MB/s, 20 us): b = 62.5e6, c = 70 us (same backwards).
  EXPECT_EQ(platform.bandwidth(c1, c3), 62.5e6);
  EXPECT_DOUBLE_EQ(platform.latency(c1, c3), 70e-6);
  EXPECT_EQ(platform.bandwidth(c3, c1), 62.5e6);
  EXPECT_DOUBLE_EQ(platform.latency(c3, c1), 70e-6);
  // cpu-2 -> cpu-4: l_2 (250 MB/s, 100 us), l_4 (500 MB/s, 10 us): b = 250e6, c = 110 us.
  EXPECT_EQ(platform.bandwidth(c2, c4), 250e6);
  EXPECT_DOUBLE_EQ(platform.latency(c2, c4), 110e-6);
  // P_in -> cpu-5: l_io (1 GB/s, 10 us), l_5 (100 MB/s, 30 us): b = 100e6, c = 40 us.
  EXPECT_EQ(platform.bandwidth(platform.in(), c5), 100e6);
  EXPECT_DOUBLE_EQ(platform.latency(platform.in(), c5), 40e-6);
  // cpu-4 -> P_out: l_4 (500 MB/s, 10 us), l_io (1 GB/s, 10 us): b = 500e6, c = 20 us.
  EXPECT_EQ(platform.bandwidth(c4, platform.out()), 500e6);
  EXPECT_DOUBLE_EQ(platform.latency(c4, platform.out()), 20e-6);
  // Properties: cpu-1 f = 0.05, Bin = 100MBps; cpu-3 f = 0.1, Bout = 5e7; cpu-5 MTBF 3600 s; others default.
  EXPECT_EQ(platform.processor(c1).failure_probability, 0.05);
  EXPECT_EQ(platform.processor(c1).nic_in, 1e8);
  EXPECT_EQ(platform.processor(c1).nic_out, unbounded);
  EXPECT_EQ(platform.processor(c3).failure_probability, 0.1);
  EXPECT_EQ(platform.processor(c3).nic_out, 5e7);
  EXPECT_EQ(platform.processor(c5).mtbf, 3600);
  EXPECT_EQ(platform.processor(c2).failure_probability, 0.0);
  EXPECT_EQ(platform.processor(c2).mtbf, unbounded);
  EXPECT_EQ(platform.classify(), PlatformClass::fully_heterogeneous);
  EXPECT_EQ(platform.xml_file(), example("star.xml"));
}

TEST(ExamplePlatforms, TwoClusters)
{
  Platform platform = load_xml_platform(example("two_clusters.xml"), "io", "io");
  // Natural order: b-8, b-9 before b-10, b-11.
  EXPECT_EQ(names(platform), (std::vector<std::string>{"a-1", "a-2", "a-3", "a-4", "b-8", "b-9", "b-10", "b-11"}));
  EXPECT_EQ(platform.speed(node(platform, "a-2")), 1e9);
  EXPECT_EQ(platform.speed(node(platform, "b-10")), 2.5e9);
  const int a1 = node(platform, "a-1"), a2 = node(platform, "a-2"), a3 = node(platform, "a-3"),
            b8 = node(platform, "b-8"), b9 = node(platform, "b-9"), b10 = node(platform, "b-10");
  // a-1 -> a-2: a-1 up (125 MB/s, 50 us), ca backbone (2.25 GB/s, 500 us), a-2 down (125 MB/s, 50 us).
  EXPECT_EQ(platform.bandwidth(a1, a2), 125e6);
  EXPECT_DOUBLE_EQ(platform.latency(a1, a2), 600e-6);
  // b-8 -> b-10: 250 MB/s private links (20 us each), backbone 1 GB/s (100 us): b = 250e6, c = 140 us.
  EXPECT_EQ(platform.bandwidth(b8, b10), 250e6);
  EXPECT_DOUBLE_EQ(platform.latency(b8, b10), 140e-6);
  // a-1 -> b-10: a-1 up (50 us), ca backbone (500 us), backbone (10 MB/s, 5 ms), cb backbone (100 us),
  // b-10 down (20 us): b = 10e6, c = 5.67 ms; and the same backwards.
  EXPECT_EQ(platform.bandwidth(a1, b10), 10e6);
  EXPECT_DOUBLE_EQ(platform.latency(a1, b10), 5.67e-3);
  EXPECT_EQ(platform.bandwidth(b10, a1), 10e6);
  EXPECT_DOUBLE_EQ(platform.latency(b10, a1), 5.67e-3);
  // P_in -> a-3: io_link (100 MB/s, 1 ms), ca backbone (500 us), a-3 down (50 us): b = 100e6, c = 1.55 ms.
  EXPECT_EQ(platform.bandwidth(platform.in(), a3), 100e6);
  EXPECT_DOUBLE_EQ(platform.latency(platform.in(), a3), 1.55e-3);
  // b-9 -> P_out: b-9 up (250 MB/s, 20 us), cb backbone (100 us), io_link (100 MB/s, 1 ms): 100e6, 1.12 ms.
  EXPECT_EQ(platform.bandwidth(b9, platform.out()), 100e6);
  EXPECT_DOUBLE_EQ(platform.latency(b9, platform.out()), 1.12e-3);
  EXPECT_EQ(platform.classify(), PlatformClass::fully_heterogeneous);
}

TEST(ExamplePlatforms, TwoClustersWithSeparateOutput)
{
  // b-11 acts as P_out: it is no longer a processor.
  Platform platform = load_xml_platform(example("two_clusters.xml"), "io", "b-11");
  EXPECT_EQ(platform.p(), 7);
  EXPECT_FALSE(platform.find("b-11").has_value());
  // a-1 -> b-11 as above with b-11 down: b = 10e6, c = 5.67 ms; P_in -> b-8: io_link, cb backbone, b-8 down.
  EXPECT_EQ(platform.bandwidth(node(platform, "a-1"), platform.out()), 10e6);
  EXPECT_DOUBLE_EQ(platform.latency(node(platform, "a-1"), platform.out()), 5.67e-3);
  EXPECT_EQ(platform.bandwidth(platform.in(), node(platform, "b-8")), 100e6);
  EXPECT_DOUBLE_EQ(platform.latency(platform.in(), node(platform, "b-8")), 1.12e-3);
}

TEST(ExamplePlatforms, MeshLatency)
{
  Platform platform = load_xml_platform(example("mesh_latency.xml"), "io", "io");
  EXPECT_EQ(names(platform), (std::vector<std::string>{"m1", "m2", "m3", "m4"}));
  EXPECT_EQ(platform.speed(2), 7.5e8);
  EXPECT_EQ(platform.speed(3), 4e9);
  const int m1 = 0, m2 = 1, m3 = 2, m4 = 3, in = platform.in(), out = platform.out();
  // P_in -> m3: l_io_1 (100 MB/s, 1 ms), l_1_3 (30 MB/s, 4 ms): b = 30e6, c = 5 ms.
  EXPECT_EQ(platform.bandwidth(in, m3), 30e6);
  EXPECT_DOUBLE_EQ(platform.latency(in, m3), 5e-3);
  // m1 -> m2 direct on l_1_2 (40 MB/s, 5 ms); m2 -> m1 via l_2_3 (60 MB/s, 1.5 ms), l_1_3 (30 MB/s, 4 ms).
  EXPECT_EQ(platform.bandwidth(m1, m2), 40e6);
  EXPECT_DOUBLE_EQ(platform.latency(m1, m2), 5e-3);
  EXPECT_EQ(platform.bandwidth(m2, m1), 30e6);
  EXPECT_DOUBLE_EQ(platform.latency(m2, m1), 5.5e-3);
  // m2 -> m4 and back: l_2_3, l_3_4 (25 MB/s, 2.5 ms): b = 25e6, c = 4 ms.
  EXPECT_EQ(platform.bandwidth(m2, m4), 25e6);
  EXPECT_DOUBLE_EQ(platform.latency(m2, m4), 4e-3);
  EXPECT_EQ(platform.bandwidth(m4, m2), 25e6);
  EXPECT_DOUBLE_EQ(platform.latency(m4, m2), 4e-3);
  // m3 -> P_out: the symmetric of io -> m3; m4 -> P_out: l_io_4 (50 MB/s, 3 ms).
  EXPECT_EQ(platform.bandwidth(m3, out), 30e6);
  EXPECT_DOUBLE_EQ(platform.latency(m3, out), 5e-3);
  EXPECT_EQ(platform.bandwidth(m4, out), 50e6);
  EXPECT_DOUBLE_EQ(platform.latency(m4, out), 3e-3);
  // m2: f = 0.2, Bin = 50MBps; m4: MTBF = 2h, Bout = 2e7.
  EXPECT_EQ(platform.processor(m2).failure_probability, 0.2);
  EXPECT_EQ(platform.processor(m2).nic_in, 5e7);
  EXPECT_EQ(platform.processor(m4).mtbf, 7200);
  EXPECT_EQ(platform.processor(m4).nic_out, 2e7);
  EXPECT_EQ(platform.processor(m1).nic_in, unbounded);
  PlatformFlags flags = platform.flags();
  EXPECT_FALSE(flags.speed_hom);
  EXPECT_FALSE(flags.card_hom);
  EXPECT_FALSE(flags.fail_hom);
}

std::string error_of(const std::string& file, const std::string& in, const std::string& out)
{
  try {
    load_xml_platform(file, in, out);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no InputError";
}

TEST(ExamplePlatforms, MissingIoHost)
{
  std::string file = example("star.xml");
  EXPECT_EQ(error_of(file, "source", "source"),
            "key 'platform.io.in': value 'source': the host named as P_in and P_out is not in the platform " + file +
                " (hosts: cpu-1, cpu-2, cpu-3, cpu-4, cpu-5, io)");
  EXPECT_EQ(error_of(file, "source", "io"),
            "key 'platform.io.in': value 'source': the host named as P_in is not in the platform " + file +
                " (hosts: cpu-1, cpu-2, cpu-3, cpu-4, cpu-5, io)");
  EXPECT_EQ(error_of(file, "io", "sink"),
            "key 'platform.io.out': value 'sink': the host named as P_out is not in the platform " + file +
                " (hosts: cpu-1, cpu-2, cpu-3, cpu-4, cpu-5, io)");
}

} // namespace
} // namespace pipesim
