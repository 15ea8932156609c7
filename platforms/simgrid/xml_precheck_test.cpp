#include "base/input_error.hpp"
#include "platforms/simgrid/simgrid_platform.hpp"
#include "platforms/simgrid/xml_precheck.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace pipesim {
namespace {

std::string precheck_error_of(const std::string& text)
{
  try {
    precheck_platform_xml("p.xml", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(XmlPrecheck, UnknownRoutingNamesFileLineAndValue)
{
  EXPECT_EQ(
      precheck_error_of("<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Fll\">\n"),
      "p.xml:2: attribute 'routing': value 'Fll': expected one of: Cluster, Dijkstra, DijkstraCache, Floyd, Full, "
      "None, Vivaldi, Wifi");
  EXPECT_EQ(precheck_error_of("<zone id='z'\n routing = ''>"),
            "p.xml:2: attribute 'routing': value '': expected one of: Cluster, "
            "Dijkstra, DijkstraCache, Floyd, Full, None, Vivaldi, Wifi");
}

TEST(XmlPrecheck, KnownRoutingsCommentsAndOtherTextPass)
{
  EXPECT_EQ(precheck_error_of("<!-- Floyd routing=\"nonsense\" -->\n<zone id=\"a\" routing=\"Floyd\">"
                              "<zone id=\"b\" routing='Full'/><host id=\"routing\" speed=\"1f\"/></zone>"),
            "no error");
  EXPECT_EQ(precheck_error_of("<zone routing=\"Full"), "no error"); // unterminated: SimGrid's parser reports it
}

// Found by fuzz_xml (platforms/examples/mesh_latency.xml with one byte of "Full" changed): SimGrid died with "Not a
// valid model!" and the loader could only say that the loading process died.
TEST(XmlPrecheck, LoadXmlPlatformRefusesAnUnknownRoutingBeforeSimgrid)
{
  auto path = std::filesystem::temp_directory_path() / ("pipesim-precheck-" + std::to_string(getpid()) + ".xml");
  std::ofstream(path) << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                         "<platform version=\"4.1\">\n  <zone id=\"mesh\" routing=\"\xa6ull\">\n"
                         "    <host id=\"io\" speed=\"1Gf\"/>\n  </zone>\n</platform>\n";
  try {
    load_xml_platform(path.string(), "io", "io");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() +
                                         ":4: attribute 'routing': value '\xa6ull': expected one of: "
                                         "Cluster, Dijkstra, DijkstraCache, Floyd, Full, None, Vivaldi, Wifi");
  }
  std::filesystem::remove(path);
}

// Issue 16: speed="-2Gf" was mapped with a negative speed, "0f" and "inff" aborted the simulation in SimGrid (SIGABRT,
// exit 1), a negative or nan latency was taken as it is.
TEST(XmlPrecheck, RatesAndLatenciesOutsideTheirRangeNameLineAttributeAndValue)
{
  const std::string head = "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n";
  EXPECT_EQ(precheck_error_of(head + "<host id=\"a\" speed=\"-2Gf\"/>"),
            "p.xml:3: attribute 'speed': value '-2Gf': expected a finite number > 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "<host id=\"a\" speed=\"0f\"/>"),
            "p.xml:3: attribute 'speed': value '0f': expected a finite number > 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "<host id=\"a\" speed=\"1Gf, 0.5Gf,inff\"/>"),
            "p.xml:3: attribute 'speed': value '1Gf, 0.5Gf,inff': expected a finite number > 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "\n<link id=\"l\" bandwidth=\"-1MBps\" latency=\"0\"/>"),
            "p.xml:4: attribute 'bandwidth': value '-1MBps': expected a finite number > 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "<link id=\"l\" bandwidth=\"1MBps\" latency=\"-1s\"/>"),
            "p.xml:3: attribute 'latency': value '-1s': expected a finite number >= 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "<link id=\"l\" bandwidth=\"1MBps\" latency=\"nans\"/>"),
            "p.xml:3: attribute 'latency': value 'nans': expected a finite number >= 0 (before its unit)");
  EXPECT_EQ(precheck_error_of(head + "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" "
                                     "bw=\"125MBps\" lat=\"50us\" bb_bw=\"0Bps\" bb_lat=\"500us\"/>"),
            "p.xml:3: attribute 'bb_bw': value '0Bps': expected a finite number > 0 (before its unit)");
}

TEST(XmlPrecheck, ValidRatesLatenciesAndNonNumbersPass)
{
  EXPECT_EQ(precheck_error_of("<host id=\"a\" speed=\"1Gf,2Gf\"/><link id=\"speed\" bandwidth=\"1e9\" latency=\"0\"/>"
                              "<!-- speed=\"-1f\" --><prop id=\"latency\" value=\"-3\"/>"),
            "no error");
  EXPECT_EQ(precheck_error_of("<host id=\"a\" speed=\"abc\"/>"), "no error"); // SimGrid's parser names its line
}

// Found by fuzz_xml (2026-11-27): the shipped star.xml cut after its first comment, no <platform> element. SimGrid 3.32
// parses it and then crashes (SIGSEGV in NetZoneImpl::seal: no root zone); so does a <platform> without a zone.
TEST(XmlPrecheck, APlatformWithoutRootZoneNamesWhatIsMissing)
{
  const std::string prolog = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
  EXPECT_EQ(precheck_error_of(prolog + "<!-- pipesim example: a star. <platform> -->\n"),
            "p.xml:1: no <platform> element: this is not a SimGrid platform file");
  EXPECT_EQ(precheck_error_of(""), "p.xml:1: no <platform> element: this is not a SimGrid platform file");
  EXPECT_EQ(precheck_error_of(prolog + "<platform version=\"4.1\">\n<config><prop id=\"a\" value=\"b\"/></config>\n"
                                       "</platform>\n"),
            "p.xml:3: element <platform>: no <zone> (or <cluster>) in it: SimGrid 3.32 needs a root zone, e.g. "
            "<zone id=\"world\" routing=\"Full\">, and crashes without one");
  EXPECT_EQ(precheck_error_of(prolog + "<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"h-\" suffix=\"\" "
                                       "radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"0\"/>\n</platform>\n"),
            "no error");
  EXPECT_EQ(precheck_error_of(prolog + "<platform version=\"4.1\"><AS id=\"z\" routing=\"Full\"/></platform>"),
            "no error");
  EXPECT_EQ(precheck_error_of("<platform version=\"4.1"), "no error"); // unterminated: SimGrid's parser reports it
}

TEST(XmlPrecheck, AProcessingInstructionRunsToItsEndMarkWhateverItHolds)
{
  // found by fuzz/fuzz_xml.cpp (fuzz/seeds/xml/pi-hiding-the-platform.xml): SimGrid reads "<?xm7 ... ?>" as one
  // processing instruction, then finds no element and crashes; the pre-check read it up to its first '>'
  const std::string hidden = "<?xm7 l ver=\"1\"/>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/>\n"
                             "</platform><?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"x.dtd\">\n";
  EXPECT_EQ(precheck_error_of(hidden), "p.xml:1: no <platform> element: this is not a SimGrid platform file");
  EXPECT_EQ(precheck_error_of("<?pi a > b ?>\n<platform version=\"4.1\"><config/></platform>"),
            "p.xml:2: element <platform>: no <zone> (or <cluster>) in it: SimGrid 3.32 needs a root zone, e.g. "
            "<zone id=\"world\" routing=\"Full\">, and crashes without one");
  EXPECT_EQ(precheck_error_of("<?pi a > b ?>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/></platform>"),
            "no error");
  EXPECT_EQ(precheck_error_of("<?pi a > b \n<platform version=\"4.1\"/>"), "no error"); // unterminated: SimGrid says
}

TEST(XmlPrecheck, ValuesInsideMarkupSimgridIgnoresAreNotChecked)
{
  // SimGrid's parser skips a processing instruction, a comment and a declaration whole: their text is no attribute
  const std::string zone = "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>";
  EXPECT_EQ(
      precheck_error_of("<?pi speed=\"-1\" > routing='Fll' ?>\n<platform version=\"4.1\">" + zone + "</platform>"),
      "no error");
  EXPECT_EQ(
      precheck_error_of("<!-- speed=\"0f\" -->\n<!DOCTYPE platform SYSTEM \"x.dtd\">\n<platform version=\"4.1\">" +
                        zone + "</platform>"),
      "no error");
  // after them, values are checked again, with their line
  EXPECT_EQ(precheck_error_of("<?pi speed=\"1\" ?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">"
                              "<host id=\"a\" speed=\"-1Gf\"/></zone></platform>"),
            "p.xml:3: attribute 'speed': value '-1Gf': expected a finite number > 0 (before its unit)");
}

TEST(XmlPrecheck, ElementsSimgridAbortsOnNameTheirLine)
{
  const std::string head = "<platform version=\"4.1\">\n";
  EXPECT_EQ(precheck_error_of(head + "<zone id=\"z\" routing=\"Full\">\n<include file=\"x.xml\"/></zone>"),
            "p.xml:3: element <include>: removed in SimGrid 3.18 (3.32 aborts on it); copy the included zones in");
  const std::string peer = "<peer id=\"p\" speed=\"1Gf\" bw_in=\"1GBps\" bw_out=\"1GBps\" coordinates=\"0 0 0\"/>";
  const std::string misplaced =
      "element <peer>: only inside a <zone routing=\"Vivaldi\"> (SimGrid 3.32 aborts otherwise)";
  EXPECT_EQ(precheck_error_of(head + "<zone id=\"z\" routing=\"Full\">\n\n" + peer + "</zone>"),
            "p.xml:4: " + misplaced);
  EXPECT_EQ(precheck_error_of(head + "<zone id=\"z\" routing=\"Vivaldi\"/>" + peer), "p.xml:2: " + misplaced);
  EXPECT_EQ(precheck_error_of(head + "<zone id=\"z\" routing=\"Vivaldi\">\n" + peer + "</zone>"), "no error");
  EXPECT_EQ(precheck_error_of(head + "<zone id=\"z\" routing=\"Full\"/>\n<cabinet id=\"c\" prefix=\"h-\" suffix=\"\" "
                                     "radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"0\"/>"),
            "p.xml:3: element <cabinet>: directly in <platform>: put it in a <zone> (SimGrid 3.32 crashes otherwise)");
}

} // namespace
} // namespace pipesim
