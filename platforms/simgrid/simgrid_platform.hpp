// Bridges the platform model and SimGrid 3.32 (S4U): read a loaded platform, load an XML file, build or export one.
#pragma once

#include "platforms/platform.hpp"
#include "platforms/platform_edits.hpp"

#include <functional>
#include <simgrid/forward.h>
#include <string>
#include <vector>

namespace pipesim {

/// Natural ("human") order of host names: digit runs compare as numbers, so "P2" < "P10" and "b-9" < "b-10".
/// Ties between equal numbers written differently ("P01" vs "P1") are broken by plain string order.
bool natural_less(const std::string& a, const std::string& b);

/// Creates this process's SimGrid engine, quiet (log threshold: warning), with extra command-line style arguments
/// (e.g. "--cfg=network/model:CM02"). The engine is never destroyed: call it in a process that ends with _exit,
/// such as a run_in_child job. SimGrid allows one engine per process.
simgrid::s4u::Engine* start_engine(const std::vector<std::string>& args = {});

/// The model of the platform already loaded in this process's engine (DESIGN.md §6). It seals the platform first
/// (Floyd/Dijkstra zones compute their routes then). Every host except the io hosts is a processor, in natural name
/// order; s_u is the host's speed (per core, current pstate); b_{u,v} is the smallest bandwidth on route_to(v) and
/// c_{u,v} the sum of its latencies, for every ordered pair of nodes P_in and P_out included. Host properties
/// failure_probability, nic_in, nic_out (bytes/s: a number or SimGrid units such as 100MBps) and mtbf (s: a number
/// or units such as 2h) fill the Processor fields. The platform's xml_file is set to `file_label`.
/// A pair without route (SimGrid gives an empty route or cannot compute one) gets b = 0: unreachable.
/// `options` selects the processors (`platform.hosts`) and applies what-if edits in order (`platform.edits`): link
/// edits change the engine's links (recorded in link_settings), fail_link records link_failures (and makes every route
/// through the links it turns off at time 0 unreachable; a later failure only happens in the simulations), host edits
/// act on the model. Link values are computed only for the pairs of selected nodes (processors, P_in, P_out). The
/// edits' records are in applied_edits(). Errors: InputError naming `file_label` (missing io host with the list of
/// hosts, bad property) or the edit's or pattern's file and line (a pattern that matches nothing, a removed io host, no
/// processor left).
Platform platform_from_engine(const std::string& file_label, const std::string& in_name, const std::string& out_name,
                              const PlatformOptions& options = {});

/// Loads a SimGrid platform XML file in a child process (run_pool) and returns its model (platform_from_engine
/// with `options`). A missing file, a SimGrid parse error or a child that dies while loading is an InputError naming
/// the file.
Platform load_xml_platform(const std::string& file, const std::string& in_name, const std::string& out_name,
                           const PlatformOptions& options = {});
/// The child process of load_xml_platform: checks the file, loads it in a fresh engine, then runs `job` there on the
/// file's text and returns its answer (the same errors).
std::string with_xml_platform(const std::string& file, const std::function<std::string(const std::string&)>& job);

/// In the simulating process, after the XML is loaded: sets the link values of platform.link_settings() and turns
/// off the links of platform.link_failures() that fail at time <= 0. Unknown link names are an InputError naming the
/// file and the link. In SimGrid 3.32 a transfer started on a route through a link that is off fails.
void apply_link_settings(const Platform& platform);
/// The link failures at time > 0: a daemon actor on `actor_host` (which must then exist) turns each link off at its
/// time; a transfer in progress on it fails then, and so does any transfer started later on a route through it.
/// Call it where the run's actors are created (after apply_link_settings).
void schedule_link_failures(const Platform& platform, simgrid::s4u::Host* actor_host);

/// Builds `platform` in the current engine (no platform loaded yet): one Full zone "pipesim", a host per processor
/// (speed s_u, properties) and the io host(s) (speed 1), a link "<u>-><v>" (b_{u,v}, c_{u,v}) per ordered pair of
/// distinct hosts with b > 0, and the non-symmetrical route u->v = [<u>_nic_out, <u>-><v>, <v>_nic_in]. The card links
/// (bandwidth Bout_u / Bin_v, no latency) exist only when `with_cards` and the capacity is finite, never on io hosts.
/// Under CM02 without cross traffic nor TCP-gamma, X bytes on u->v take exactly c_{u,v} + X / b_{u,v}.
void build_simgrid_platform(const Platform& platform, bool with_cards);

/// SimGrid 4.1 XML of `platform` in the shape build_simgrid_platform gives (without card links: capacities are
/// exported as host properties), numbers written with 17 significant digits so that load_xml_platform gives back
/// exactly the same model. Profiles become speed_file, state_file, bandwidth_file and latency_file attributes naming
/// the files of exported_profiles(platform, profile_prefix) (write them next to the XML).
std::string export_xml(const Platform& platform, const std::string& profile_prefix = "profile-");

} // namespace pipesim
