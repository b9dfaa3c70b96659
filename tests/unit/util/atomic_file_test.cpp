#include "util/atomic_file.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using dlock::write_file_atomically;

namespace {

std::string contents(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct ScratchDir {
    std::string path;
    ScratchDir() {
        char tmpl[] = "/tmp/dlock-atomic-XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        path = tmpl;
    }
    ~ScratchDir() {
        chmod(path.c_str(), 0700);
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    size_t entries() const {
        size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(path))
            ++n;
        return n;
    }
};

} // namespace

TEST_CASE("atomic file: replaces the file whole, mode 0644 whatever the umask", "[atomic_file]") {
    ScratchDir dir;
    const std::string file = dir.path + "/dlock.prom";
    std::ofstream(file) << "old\n";
    const mode_t old_umask = umask(077);
    const auto failure = write_file_atomically(file, "new content\n");
    umask(old_umask);
    CHECK(failure.step.empty());
    CHECK(contents(file) == "new content\n");
    struct stat st {};
    REQUIRE(stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0644);
    CHECK(dir.entries() == 1); // no temporary file left
}

TEST_CASE("atomic file: a missing directory is named as the failure, nothing left",
          "[atomic_file]") {
    ScratchDir dir;
    const auto failure = write_file_atomically(dir.path + "/no/such/dlock.prom", "x\n");
    CHECK(failure.step == "create");
    CHECK(failure.error == ENOENT);
    CHECK(dir.entries() == 0);
}

TEST_CASE("atomic file: a directory, a FIFO or a symbolic link is refused, never replaced",
          "[atomic_file]") {
    ScratchDir dir;
    const std::string directory = dir.path + "/a-dir", fifo = dir.path + "/a-fifo",
                      real = dir.path + "/real.prom", link = dir.path + "/link.prom";
    REQUIRE(mkdir(directory.c_str(), 0755) == 0);
    REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
    { std::ofstream(real) << "old\n"; }
    REQUIRE(symlink(real.c_str(), link.c_str()) == 0);
    for (const auto* target : {&directory, &fifo, &link}) {
        INFO(*target);
        const auto failure = write_file_atomically(*target, "x\n");
        CHECK(failure.step == "check");
        CHECK_FALSE(failure.why.empty());
    }
    CHECK(std::filesystem::is_directory(directory));
    CHECK(std::filesystem::is_fifo(fifo));
    CHECK(std::filesystem::is_symlink(link));
    CHECK(contents(real) == "old\n");
    CHECK(dir.entries() == 4); // no temporary file left
}
