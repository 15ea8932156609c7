// Linked into every test program (pipesim_add_tests): each test process gets a scratch directory of its own, TMPDIR
// points there while its tests run (and for the programs they start), and it is removed at the end, so the temporary
// files of the tests do not pile up in /tmp. A test process killed midway leaves its directory behind.
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <system_error>
#include <unistd.h>

namespace {

class ScratchTmpdir : public ::testing::Environment {
public:
  void SetUp() override
  {
    const char* parent  = std::getenv("TMPDIR");
    std::string pattern = std::string(parent != nullptr && *parent != '\0' ? parent : "/tmp") + "/pipesim-test-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return; // TMPDIR stays as it is
    dir_ = pattern;
    setenv("TMPDIR", dir_.c_str(), 1);
  }
  void TearDown() override
  {
    if (dir_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

private:
  std::string dir_;
};

[[maybe_unused]] ::testing::Environment* const scratch_tmpdir_environment =
    ::testing::AddGlobalTestEnvironment(new ScratchTmpdir);

} // namespace
