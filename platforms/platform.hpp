// Platform model of DESIGN.md §1/§6: processors P_1..P_p plus P_in/P_out, per-pair links b_{u,v}, c_{u,v}.
#pragma once

#include "base/enum_names.hpp"
#include "platforms/profile.hpp"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pipesim {

inline constexpr double unbounded = std::numeric_limits<double>::infinity();
inline constexpr double infinity  = std::numeric_limits<double>::infinity(); // a cost no choice reaches

/// One computing processor P_u (br07 §2.2, bbr10 §3.2).
struct Processor {
  std::string name;
  double speed               = 1.0;       // s_u, flop/s
  double failure_probability = 0.0;       // f_u in [0, 1)
  double nic_in              = unbounded; // Bin_u, bytes/s
  double nic_out             = unbounded; // Bout_u, bytes/s
  double mtbf                = unbounded; // mean time between failures (exponential crash model), s
};

/// A SimGrid link's values after what-if edits (XML platforms): the simulator sets them after loading the file.
struct LinkSetting {
  std::string link;
  double bandwidth = 0; // bytes/s
  double latency   = 0; // s
};

/// A SimGrid link that a what-if edit turns off at `time` (XML platforms).
struct LinkFailure {
  std::string link;
  double time = 0;
};

/// What one what-if edit matched (recorded in the outputs).
struct AppliedEdit {
  std::string edit;                 // as PlatformEdit::describe() writes it
  std::vector<std::string> matched; // host or link names
};

/// br07 §2.2 classes.
enum class PlatformClass { fully_homogeneous, communication_homogeneous, fully_heterogeneous };
PIPESIM_ENUM_NAMES(PlatformClass, {fully_homogeneous, "fully-homogeneous"},
                   {communication_homogeneous, "communication-homogeneous"},
                   {fully_heterogeneous, "fully-heterogeneous"});

/// bbr10 §3.2 finer flags.
struct PlatformFlags {
  bool speed_hom = false;
  bool link_hom  = false;
  bool card_hom  = false;
  bool fail_hom  = false;
};

/// Node indices: 0..p-1 are the processors, p is P_in, p+1 is P_out. P_in and P_out may name the same host.
/// Link values are per ordered pair and per direction; b(u,u) is infinite and c(u,u) zero (local).
/// b(u,v) = 0 means "unreachable": no route (or a failed link on it); transfer_time is then infinite.
class Platform {
public:
  Platform() = default;
  /// All pairs get bandwidth `b` and latency `c`.
  Platform(std::vector<Processor> processors, std::string in_name, std::string out_name, double b = 1.0,
           double c = 0.0);

  int p() const { return static_cast<int>(processors_.size()); }
  int in() const { return p(); }
  int out() const { return p() + 1; }
  int nodes() const { return p() + 2; }

  const std::vector<Processor>& processors() const { return processors_; }
  const Processor& processor(int u) const { return processors_.at(static_cast<std::size_t>(u)); }
  Processor& processor(int u) { return processors_.at(static_cast<std::size_t>(u)); }
  double speed(int u) const { return processor(u).speed; }

  /// Host name of any node (P_in/P_out included).
  const std::string& node_name(int u) const;
  const std::string& in_name() const { return in_name_; }
  const std::string& out_name() const { return out_name_; }
  bool io_same_host() const { return in_name_ == out_name_; }

  /// Processor index of a host name (P_in/P_out excluded), or nullopt.
  std::optional<int> find(const std::string& name) const;

  double bandwidth(int u, int v) const { return u == v ? unbounded : bandwidth_[index(u, v)]; } // b_{u,v}
  double latency(int u, int v) const { return u == v ? 0.0 : latency_[index(u, v)]; }           // c_{u,v}
  void set_link(int u, int v, double bandwidth, double latency);
  /// Time to move X bytes on u->v: c_{u,v} + X / b_{u,v} (0 when u == v).
  double transfer_time(int u, int v, double bytes) const
  {
    if (u == v) return 0.0;
    double b = bandwidth_[index(u, v)];
    return b > 0 ? latency_[index(u, v)] + bytes / b : unbounded;
  }
  /// False when u -> v has no route (b_{u,v} = 0).
  bool reachable(int u, int v) const { return u == v || bandwidth_[index(u, v)] > 0; }

  /// Where the platform came from: a SimGrid XML file (simulations reload it) or empty (built from the model).
  const std::string& xml_file() const { return xml_file_; }
  void set_xml_file(std::string file) { xml_file_ = std::move(file); }

  /// XML platforms after what-if edits: link values to set in SimGrid, links to turn off, and what each edit matched.
  const std::vector<LinkSetting>& link_settings() const { return link_settings_; }
  const std::vector<LinkFailure>& link_failures() const { return link_failures_; }
  const std::vector<AppliedEdit>& applied_edits() const { return applied_edits_; }
  void set_link_settings(std::vector<LinkSetting> s) { link_settings_ = std::move(s); }
  void set_link_failures(std::vector<LinkFailure> f) { link_failures_ = std::move(f); }
  void set_applied_edits(std::vector<AppliedEdit> e) { applied_edits_ = std::move(e); }

  /// Time-varying values (DESIGN.md §3.11): the model's figures above are the nominal ones, platform_at(t) the ones
  /// at date t.
  const PlatformProfiles& profiles() const { return profiles_; }
  void set_profiles(PlatformProfiles p) { profiles_ = std::move(p); }

  PlatformClass classify() const;
  PlatformFlags flags() const;

private:
  std::size_t index(int u, int v) const // inline: the mappers' inner loops read links (throws out_of_range)
  {
    if (u < 0 || v < 0 || u >= nodes() || v >= nodes()) out_of_range(u, v);
    return static_cast<std::size_t>(u) * static_cast<std::size_t>(nodes()) + static_cast<std::size_t>(v);
  }
  [[noreturn]] void out_of_range(int u, int v) const;

  std::vector<Processor> processors_;
  std::string in_name_  = "in";
  std::string out_name_ = "out";
  std::vector<double> bandwidth_; // nodes() x nodes(), row = source
  std::vector<double> latency_;
  std::string xml_file_;
  std::vector<LinkSetting> link_settings_;
  std::vector<LinkFailure> link_failures_;
  std::vector<AppliedEdit> applied_edits_;
  PlatformProfiles profiles_;
};

} // namespace pipesim
