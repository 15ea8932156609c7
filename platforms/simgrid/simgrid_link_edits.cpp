// Carries the what-if link edits of an XML platform into the SimGrid engine of a simulating process.
#include "platforms/simgrid/simgrid_platform.hpp"

#include "base/input_error.hpp"

#include <fmt/format.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace sg4 = simgrid::s4u;

namespace pipesim {

namespace {
sg4::Link* link_named(const Platform& platform, const std::string& name, const char* what)
{
  sg4::Link* link = sg4::Link::by_name_or_null(name);
  if (link == nullptr)
    throw InputError::keyed(
        "platform.edits", name,
        fmt::format("{} names this link, which is not in the SimGrid platform {}", what, platform.xml_file()));
  return link;
}
} // namespace

void apply_link_settings(const Platform& platform)
{
  // absolute values: the edits were computed on the values the XML gives (Link::set_* work on sealed links)
  for (const LinkSetting& s : platform.link_settings()) {
    sg4::Link* link = link_named(platform, s.link, "a link setting");
    link->set_bandwidth(s.bandwidth);
    link->set_latency(s.latency);
  }
  for (const LinkFailure& f : platform.link_failures()) {
    sg4::Link* link = link_named(platform, f.link, "a link failure");
    // SimGrid 3.32 fails at once every communication started later on a route through an off link
    // (NetworkCm02Model::comm_get_route_info, CommImpl::start)
    if (f.time <= 0) link->turn_off();
  }
}

void schedule_link_failures(const Platform& platform, sg4::Host* actor_host)
{
  for (const LinkFailure& f : platform.link_failures()) {
    if (f.time <= 0) continue; // apply_link_settings turned it off
    sg4::Link* link = link_named(platform, f.link, "a link failure");
    if (actor_host == nullptr)
      throw InputError::keyed(
          "platform.edits", f.link,
          fmt::format("no host of {} to run the failure of this link at t = {}", platform.xml_file(), f.time));
    // a daemon: SimGrid ends the run when only daemons are left, so a run over before `time` does not wait for it
    sg4::Actor::create("pipesim-link-failure", actor_host, [link, time = f.time] {
      sg4::this_actor::sleep_until(time);
      link->turn_off(); // fails the transfers in progress on it (StandardLinkImpl::turn_off)
    })->daemonize();
  }
}

} // namespace pipesim
