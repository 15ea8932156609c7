// Durable, resumable campaign result files.
#include "validation/campaigns/result_files.hpp"

#include "base/input_error.hpp"
#include "validation/campaigns/campaign_row.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace pipesim {

DurableAppender::DurableAppender(const std::string& path) : path_(path)
{
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError::in_file(path, 0, fmt::format("cannot open for writing: {}", std::strerror(errno)));
}

DurableAppender::~DurableAppender()
{
  if (fd_ >= 0) ::close(fd_);
}

DurableAppender::DurableAppender(DurableAppender&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_))
{
  other.fd_ = -1;
}

DurableAppender& DurableAppender::operator=(DurableAppender&& other) noexcept
{
  std::swap(fd_, other.fd_);
  std::swap(path_, other.path_);
  return *this;
}

void DurableAppender::append(const std::string& line) { append_lines({line}); }

void DurableAppender::append_lines(const std::vector<std::string>& lines)
{
  std::string data;
  for (const auto& line : lines) {
    data += line;
    data += '\n';
  }
  const char* p    = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  ::fsync(fd_);
}

DirectoryLock::DirectoryLock(const std::string& dir)
{
  std::string path = dir + "/.lock";
  fd_              = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError::in_file(path, 0, fmt::format("cannot open: {}", std::strerror(errno)));
  struct flock lock {};
  lock.l_type   = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd_, F_SETLK, &lock) == 0) return;
  int error           = errno;
  struct flock holder = lock;
  bool known          = ::fcntl(fd_, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK;
  ::close(fd_);
  fd_ = -1;
  if (error != EACCES && error != EAGAIN)
    throw InputError::in_file(path, 0, fmt::format("cannot lock: {}", std::strerror(error)));
  throw InputError::in_file(dir, 0,
                            fmt::format("another pipesim campaign{} is writing there; wait until it ends",
                                        known ? fmt::format(" (pid {})", holder.l_pid) : ""));
}

DirectoryLock::~DirectoryLock()
{
  if (fd_ >= 0) ::close(fd_);
}

std::vector<CampaignRow> read_rows(const std::string& path)
{
  std::vector<CampaignRow> rows;
  if (!std::filesystem::exists(path)) return rows;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::size_t end  = text.rfind('\n');
  std::size_t keep = end == std::string::npos ? 0 : end + 1;
  if (keep != text.size()) // a torn last line: the run it held will be run again
    std::filesystem::resize_file(path, keep);
  std::size_t pos = 0;
  int line        = 0;
  while (pos < keep) {
    std::size_t nl = text.find('\n', pos);
    ++line;
    std::string s = text.substr(pos, nl - pos);
    pos           = nl + 1;
    if (s.empty()) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(s);
    } catch (const nlohmann::json::exception& e) {
      throw InputError::in_file(path, line, fmt::format("not a JSON result row: {}", e.what()));
    }
    rows.push_back(CampaignRow::from_json(j, fmt::format("{}:{}", path, line)));
  }
  return rows;
}

void write_file_atomically(const std::string& path, const std::string& content)
{
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out.flush()) throw std::runtime_error(fmt::format("{}: write failed", tmp));
  }
  int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  std::filesystem::rename(tmp, path);
}

void write_sorted_results(const std::string& dir, std::vector<CampaignRow> rows, const std::vector<std::string>& swept,
                          CampaignMode mode)
{
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.run_id < b.run_id; });
  std::string jsonl;
  std::string csv = CampaignRow::csv_header(swept, mode) + "\n";
  for (const auto& row : rows) {
    jsonl += row.to_json().dump() + "\n";
    csv += row.csv_line(swept, mode) + "\n";
  }
  write_file_atomically(dir + "/results.jsonl", jsonl);
  write_file_atomically(dir + "/results.csv", csv);
}

} // namespace pipesim
