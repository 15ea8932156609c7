// Campaign output files: append-and-flush writing, reading back with repair of a torn last line, sorted rewrite.
#pragma once

#include "scenarios/campaign.hpp"
#include "validation/campaigns/campaign_row.hpp"

#include <string>
#include <vector>

namespace pipesim {

/// Appends lines to a file and flushes each to disk (fsync) before returning.
class DurableAppender {
public:
  DurableAppender() = default;
  explicit DurableAppender(const std::string& path);
  ~DurableAppender();
  DurableAppender(const DurableAppender&)            = delete;
  DurableAppender& operator=(const DurableAppender&) = delete;
  DurableAppender(DurableAppender&& other) noexcept;
  DurableAppender& operator=(DurableAppender&& other) noexcept;
  void append(const std::string& line); // adds the newline
  /// Appends the lines (each with its newline) in one write and one fsync: a batch of rows costs one sync.
  void append_lines(const std::vector<std::string>& lines);

private:
  int fd_ = -1;
  std::string path_;
};

/// An exclusive lock on an output directory (a POSIX record lock on DIR/.lock, released when the process ends, not
/// inherited by forked workers): two runners never append to the same results at once, e.g. a SLURM array task
/// requeued while its first instance is still being killed. Throws InputError naming the holder's pid when held.
class DirectoryLock {
public:
  explicit DirectoryLock(const std::string& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&)            = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

private:
  int fd_ = -1;
};

/// Rows of a results.jsonl file. A last line without its newline (a runner killed mid-write) is cut off the file;
/// a malformed complete line (not JSON, or a column of the wrong type) is an InputError naming the file and line.
/// Rows of files written before the timing rule come back in the current form (CampaignRow::from_json), so resume
/// and merge take old directories.
std::vector<CampaignRow> read_rows(const std::string& path);

/// Writes a file atomically (temporary file, fsync, rename).
void write_file_atomically(const std::string& path, const std::string& content);

/// results.jsonl and results.csv with these rows sorted by run id.
void write_sorted_results(const std::string& dir, std::vector<CampaignRow> rows, const std::vector<std::string>& swept,
                          CampaignMode mode = CampaignMode::simulate);

} // namespace pipesim
