// What a directory holds, and whether a command may write into it (output_directory.hpp).
#include "validation/campaigns/output_directory.hpp"

#include "base/input_error.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

namespace pipesim {

namespace fs = std::filesystem;

namespace {

/// The marker file of each kind, in the order they are looked for (a --slurm directory also holds campaign.json once
/// merged: it is a --slurm directory).
struct Marker {
  DirectoryKind kind;
  const char* file;
};
constexpr Marker markers[] = {{DirectoryKind::slurm_campaign, "slurm/submission.json"},
                              {DirectoryKind::campaign, "campaign.json"},
                              {DirectoryKind::pareto, "pareto.json"},
                              {DirectoryKind::whatif, "whatif.json"}};

/// The JSON object in `path`, or nullopt when it cannot be read as one.
std::optional<nlohmann::json> json_object(const fs::path& path)
{
  std::ifstream in(path);
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.is_object()) return j;
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;
}

/// Absolute, symbolic links resolved where they exist, without a trailing separator: one spelling per directory.
fs::path normal(const std::string& path)
{
  fs::path p = fs::weakly_canonical(fs::absolute(path)).lexically_normal();
  return p.has_filename() || p == p.root_path() ? p : p.parent_path();
}

/// The content of `dir`; `readable` says whether its marker parsed (a file of that name may be someone else's).
DirectoryContent content_of(const fs::path& dir, bool& readable)
{
  DirectoryContent c;
  c.dir    = dir.string();
  readable = true;
  std::error_code error;
  for (const Marker& m : markers) {
    if (!fs::is_regular_file(dir / m.file, error)) continue;
    c.kind    = m.kind;
    auto meta = json_object(dir / m.file);
    readable  = meta.has_value();
    if (meta && (m.kind == DirectoryKind::campaign || m.kind == DirectoryKind::slurm_campaign)) {
      c.name  = meta->value("name", "");
      c.file  = meta->value("file", "");
      c.hash  = meta->value("hash", "");
      c.shard = m.kind == DirectoryKind::campaign ? meta->value("shard", "1/1") : "";
    }
    return c;
  }
  return c;
}

/// Why `held` may not receive `request`'s output, or "" when it may.
std::string conflict(const DirectoryContent& held, const OutputRequest& request)
{
  if (held.kind == DirectoryKind::none) return "";
  bool campaigns = request.writes == DirectoryKind::campaign || request.writes == DirectoryKind::slurm_campaign;
  if (campaigns && (held.kind == DirectoryKind::campaign || held.kind == DirectoryKind::slurm_campaign) &&
      held.hash != request.hash)
    return "another campaign (or its campaign file changed since)";
  if (request.writes == DirectoryKind::campaign && request.shard == "merged") { // pipesim merge
    if (held.kind == DirectoryKind::slurm_campaign || (held.kind == DirectoryKind::campaign && held.shard == "merged"))
      return "";
    if (held.kind == DirectoryKind::campaign) return "results the merge would replace (it is not one of the inputs)";
  } else if (held.kind == request.writes) {
    if (held.kind != DirectoryKind::campaign || held.shard == request.shard) return "";
    return fmt::format("a different part of the campaign than this run ({}): one directory per shard, joined by "
                       "`pipesim merge`",
                       request.shard);
  }
  return fmt::format("`{}` would mix its files with them", request.command);
}

/// An ancestor of `dir` that holds pipesim output `dir` may not lie in, described; "" when there is none.
std::string enclosing_output(const fs::path& dir, const OutputRequest& request)
{
  for (fs::path child = dir, parent = dir.parent_path(); parent != child;
       child = parent, parent = parent.parent_path()) {
    bool readable         = true;
    DirectoryContent held = content_of(parent, readable);
    if (held.kind == DirectoryKind::none || !readable) continue; // a marker that is not ours: not our directory
    bool slurm_shard = held.kind == DirectoryKind::slurm_campaign && request.writes == DirectoryKind::campaign &&
                       held.hash == request.hash && dir.parent_path() == parent / "shards";
    if (!slurm_shard) return fmt::format("lies inside {}, which holds {}", parent.string(), held.describe());
  }
  return "";
}

} // namespace

std::string DirectoryContent::describe() const
{
  switch (kind) {
  case DirectoryKind::campaign:
    return fmt::format("campaign '{}' ({}{})", name, file.empty() ? "" : "file " + file + ", ",
                       shard == "merged" ? "merged by `pipesim merge`" : "shard " + shard);
  case DirectoryKind::slurm_campaign:
    return fmt::format("campaign '{}' handed to SLURM (file {}; slurm/submission.json, shards in shards/<i>)", name,
                       file);
  case DirectoryKind::pareto:
    return "the output of `pipesim pareto` (pareto.json)";
  case DirectoryKind::whatif:
    return "the output of `pipesim whatif` (whatif.json)";
  case DirectoryKind::none:
    break;
  }
  return "no pipesim output";
}

DirectoryContent directory_content(const std::string& dir)
{
  bool readable      = true;
  DirectoryContent c = content_of(fs::path(dir), readable);
  if (!readable)
    for (const Marker& m : markers)
      if (m.kind == c.kind)
        throw InputError::in_file(fmt::format("{}/{}", dir, m.file), 0,
                                  "not the JSON object pipesim writes there (a file of another program? pipesim does "
                                  "not write into that directory)");
  return c;
}

void require_output_directory(const std::string& dir, const OutputRequest& request)
{
  fs::path path = normal(dir);
  for (const auto& input : request.inputs)
    if (normal(input) == path)
      throw InputError::option(request.option, dir,
                               "is also one of the directories it reads; write into another directory (the inputs "
                               "are never written)");
  DirectoryContent held = directory_content(dir);
  if (auto why = conflict(held, request); !why.empty())
    throw InputError::option(request.option, dir,
                             fmt::format("holds {}: {}; choose another directory", held.describe(), why));
  if (auto why = enclosing_output(path, request); !why.empty())
    throw InputError::option(request.option, dir, fmt::format("{}; choose a directory outside it", why));
}

void require_output_file(const std::string& file, const std::string& option)
{
  std::error_code error;
  if (fs::is_directory(file, error))
    throw InputError::option(option, file, "is a directory; expected the path of a file");
  fs::path parent = normal(file).parent_path();
  OutputRequest request{.option = option, .writes = DirectoryKind::none};
  DirectoryContent held = directory_content(parent.string());
  if (held.kind != DirectoryKind::none)
    throw InputError::option(
        option, file,
        fmt::format("its directory {} holds {}; write the file elsewhere", parent.string(), held.describe()));
  if (auto why = enclosing_output(parent / "f", request); !why.empty())
    throw InputError::option(option, file, fmt::format("{}; write the file elsewhere", why));
}

} // namespace pipesim
