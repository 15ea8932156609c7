// What a directory holds, and which command may write into it (issue 31: no directory holding another campaign or
// another command's output is written to).
#include "base/input_error.hpp"
#include "validation/campaigns/output_directory.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace pipesim;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name)
{
  auto dir = fs::temp_directory_path() / fmt::format("pipesim-outdir-{}-{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void write_text(const std::string& path, const std::string& text)
{
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

/// The message of the InputError `f` throws, or "" when it throws none.
template <class F>
std::string directory_refusal(F f)
{
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

OutputRequest campaign_run(const std::string& hash, const std::string& shard)
{
  return {.option  = "--out",
          .command = "pipesim campaign",
          .writes  = DirectoryKind::campaign,
          .hash    = hash,
          .shard   = shard};
}

} // namespace

TEST(OutputDirectory, ReadsWhatEachCommandLeaves)
{
  std::string root = fresh_dir("kinds");
  write_text(root + "/c/campaign.json", R"({"name": "c", "file": "/x/c.yaml", "hash": "h1", "shard": "2/3"})");
  write_text(root + "/s/slurm/submission.json", R"({"name": "s", "file": "/x/s.yaml", "hash": "h2", "shards": 4})");
  write_text(root + "/s/campaign.json", R"({"name": "s", "hash": "h2", "shard": "merged"})"); // merged: still --slurm
  write_text(root + "/p/pareto.json", "{}");
  write_text(root + "/w/whatif.json", "{}");
  write_text(root + "/o/notes.txt", "mine");
  write_text(root + "/bad/campaign.json", "[1, 2]");

  DirectoryContent c = directory_content(root + "/c");
  EXPECT_EQ(c.kind, DirectoryKind::campaign);
  EXPECT_EQ(c.hash, "h1");
  EXPECT_EQ(c.shard, "2/3");
  EXPECT_EQ(c.describe(), "campaign 'c' (file /x/c.yaml, shard 2/3)");
  DirectoryContent s = directory_content(root + "/s");
  EXPECT_EQ(s.kind, DirectoryKind::slurm_campaign);
  EXPECT_EQ(s.hash, "h2");
  EXPECT_EQ(s.describe(), "campaign 's' handed to SLURM (file /x/s.yaml; slurm/submission.json, shards in shards/<i>)");
  EXPECT_EQ(directory_content(root + "/p").describe(), "the output of `pipesim pareto` (pareto.json)");
  EXPECT_EQ(directory_content(root + "/w").kind, DirectoryKind::whatif);
  EXPECT_EQ(directory_content(root + "/o").kind, DirectoryKind::none);
  EXPECT_EQ(directory_content(root + "/absent").kind, DirectoryKind::none);
  EXPECT_THAT(directory_refusal([&] { directory_content(root + "/bad"); }),
              HasSubstr(root + "/bad/campaign.json: not the JSON object pipesim writes there"));
}

TEST(OutputDirectory, ACampaignRunWritesOnlyIntoItsOwnShard)
{
  std::string root = fresh_dir("campaign");
  write_text(root + "/c/campaign.json", R"({"name": "c", "file": "/x/c.yaml", "hash": "h1", "shard": "1/2"})");
  write_text(root + "/m/campaign.json", R"({"name": "c", "file": "/x/c.yaml", "hash": "h1", "shard": "merged"})");
  write_text(root + "/s/slurm/submission.json", R"({"name": "c", "file": "/x/c.yaml", "hash": "h1"})");
  write_text(root + "/p/pareto.json", "{}");
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/new", campaign_run("h1", "1/2")); }), "");
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/c", campaign_run("h1", "1/2")); }),
            ""); // resumed
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/c", campaign_run("h2", "1/2")); }),
            "--out " + root +
                "/c: holds campaign 'c' (file /x/c.yaml, shard 1/2): another campaign (or its campaign "
                "file changed since); choose another directory");
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/c", campaign_run("h1", "2/2")); }),
              HasSubstr("a different part of the campaign than this run (2/2): one directory per shard"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/m", campaign_run("h1", "1/1")); }),
              HasSubstr("holds campaign 'c' (file /x/c.yaml, merged by `pipesim merge`): a different part"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/s", campaign_run("h1", "1/1")); }),
              HasSubstr("handed to SLURM"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/p", campaign_run("h1", "1/1")); }),
              HasSubstr("holds the output of `pipesim pareto` (pareto.json): `pipesim campaign` would mix its files "
                        "with them"));
  // inside a campaign's directory: refused, but a shard of a --slurm campaign goes in its shards/<i>
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/c/sub", campaign_run("h1", "1/1")); }),
            "--out " + root + "/c/sub: lies inside " + root +
                "/c, which holds campaign 'c' (file /x/c.yaml, shard 1/2); choose a directory outside it");
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/s/shards/3", campaign_run("h1", "3/4")); }), "");
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/s/shards/3", campaign_run("h9", "3/4")); }),
              HasSubstr("lies inside " + root + "/s"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/s/other", campaign_run("h1", "1/1")); }),
              HasSubstr("lies inside " + root + "/s"));
}

TEST(OutputDirectory, AMergeWritesIntoNoInputAndNoOtherCampaign)
{
  std::string root = fresh_dir("merge");
  write_text(root + "/a/campaign.json", R"({"name": "c", "hash": "h1", "shard": "1/2"})");
  write_text(root + "/b/campaign.json", R"({"name": "c", "hash": "h1", "shard": "2/2"})");
  write_text(root + "/m/campaign.json", R"({"name": "c", "hash": "h1", "shard": "merged"})");
  write_text(root + "/x/campaign.json", R"({"name": "x", "hash": "h9", "shard": "merged"})");
  write_text(root + "/w/whatif.json", "{}");
  OutputRequest merge{.option  = "merge --out",
                      .command = "pipesim merge",
                      .writes  = DirectoryKind::campaign,
                      .hash    = "h1",
                      .shard   = "merged",
                      .inputs  = {root + "/a", root + "/b/"}};
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/new", merge); }), "");
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/m", merge); }), ""); // the same merge again
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/b", merge); }),
            "merge --out " + root +
                "/b: is also one of the directories it reads; write into another directory (the "
                "inputs are never written)");
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/x", merge); }),
              HasSubstr("holds campaign 'x' (merged by `pipesim merge`): another campaign"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/a/merged", merge); }),
              HasSubstr("lies inside " + root + "/a"));
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/w", merge); }),
              HasSubstr("holds the output of `pipesim whatif` (whatif.json): `pipesim merge` would mix"));
  merge.inputs = {root + "/m"};
  write_text(root + "/c/campaign.json", R"({"name": "c", "hash": "h1", "shard": "1/1"})");
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/c", merge); }),
              HasSubstr("results the merge would replace (it is not one of the inputs)"));
}

TEST(OutputDirectory, StudiesAndFilesKeepToTheirOwnPlaces)
{
  std::string root = fresh_dir("studies");
  write_text(root + "/c/campaign.json", R"({"name": "c", "file": "/x/c.yaml", "hash": "h1", "shard": "1/1"})");
  write_text(root + "/p/pareto.json", "{}");
  OutputRequest pareto{.option = "--out", .command = "pipesim pareto", .writes = DirectoryKind::pareto};
  EXPECT_EQ(directory_refusal([&] { require_output_directory(root + "/p", pareto); }), ""); // its own output, again
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/c", pareto); }),
              HasSubstr("holds campaign 'c' (file /x/c.yaml, shard 1/1): `pipesim pareto` would mix its files"));
  OutputRequest whatif{.option = "--out", .command = "pipesim whatif", .writes = DirectoryKind::whatif};
  EXPECT_THAT(directory_refusal([&] { require_output_directory(root + "/p", whatif); }), HasSubstr("pipesim pareto"));

  EXPECT_EQ(directory_refusal([&] { require_output_file(root + "/fitted.yaml", "--out"); }), "");
  EXPECT_EQ(directory_refusal([&] { require_output_file(root + "/c/fitted.yaml", "--out"); }),
            "--out " + root + "/c/fitted.yaml: its directory " + root +
                "/c holds campaign 'c' (file /x/c.yaml, shard 1/1); write the file elsewhere");
  EXPECT_THAT(directory_refusal([&] { require_output_file(root + "/c/deeper/p.xml", "--output"); }),
              HasSubstr("--output " + root + "/c/deeper/p.xml: lies inside " + root + "/c"));
  EXPECT_EQ(directory_refusal([&] { require_output_file(root + "/p", "--out"); }),
            "--out " + root + "/p: is a directory; expected the path of a file");
}
