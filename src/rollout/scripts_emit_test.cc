// The rollout's scripts write what they are given only through the shell emitter (util/shell_emit.h):
// each string of a wave (host, device, PSID, versions, image, digest, switch address) set in turn to a
// hostile value, past rollout.json's read checks, and every script written from it — the wave, its
// drain and resume under both schedulers, a switch wave — read by bash and run (with a stand-in for
// `hostname` and the marker's `touch` alone on PATH, so each line's words are expanded and nothing
// else happens): the marker
// command inside the value never runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "rollout/state.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

class ScriptsEmit : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-scripts-emit-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
    mark_ = dir_ / "MARK";
    std::ofstream(dir_ / "bin" / "hostname") << "#!/bin/sh\nprintf '%s\\n' \"$TEST_HOST\"\n";
    fs::permissions(dir_ / "bin" / "hostname", fs::perms::owner_all);
    // The marker's own command: were any value to run, it could.
    fs::create_symlink(fs::exists("/usr/bin/touch") ? "/usr/bin/touch" : "/bin/touch", dir_ / "bin" / "touch");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Hostile() const {
    const std::string m = mark_.string();
    return {"x$(touch " + m + ")",
            "x`touch " + m + "`",
            "x';touch " + m + ";'",
            "x\";touch " + m + ";\"",
            "x\ntouch " + m,
            "x;touch " + m,
            "x|touch " + m,
            "-x",
            "x\\",
            "*"};
  }

  // Runs `text` as a script: bash -n accepts it, and running it creates no marker.
  void Run(const std::string& what, const std::string& text, const std::string& host) {
    SCOPED_TRACE(what);
    const fs::path script = dir_ / "s.sh";
    std::ofstream(script) << text;
    EXPECT_EQ(std::system(("/bin/bash -n '" + script.string() + "' 2> /dev/null").c_str()), 0);
    setenv("TEST_HOST", host.c_str(), 1);
    std::system(("cd '" + dir_.string() + "' && PATH='" + (dir_ / "bin").string() + "' /bin/bash '" + script.string() +
                 "' > /dev/null 2>&1")
                    .c_str());
    EXPECT_FALSE(fs::exists(mark_));
    fs::remove(mark_);
  }

  fs::path dir_, mark_;
};

RolloutDevice Device() {
  return {"n1",
          "0000:1a:00.0",
          "MT_0000000838",
          "28.39.1002",
          "28.43.2026",
          "fw-cx7.bin",
          std::string(64, 'a'),
          "28.40.1000",
          "fw-cx7-step.bin",
          std::string(64, 'b'),
          "MT2234X00001",
          false,
          "",
          "",
          ""};
}

TEST_F(ScriptsEmit, HostWaveScript) {
  const std::vector<std::pair<const char*, std::string RolloutDevice::*>> fields = {
      {"host", &RolloutDevice::host}, {"device", &RolloutDevice::device},      {"psid", &RolloutDevice::psid},
      {"to", &RolloutDevice::to},     {"image", &RolloutDevice::image},        {"sha256", &RolloutDevice::sha256},
      {"via", &RolloutDevice::via},   {"via_image", &RolloutDevice::via_image}};
  for (const std::string& value : Hostile()) {
    for (const auto& [field, member] : fields) {
      RolloutWave w;
      w.index = 2;
      w.name = "canary";
      w.devices = {Device()};
      w.devices[0].*member = value;
      w.hosts = {w.devices[0].host};
      Run(std::string(field) + " = " + value, HostScript(w), w.devices[0].host);
    }
  }
}

TEST_F(ScriptsEmit, SwitchWaveScript) {
  const std::vector<std::pair<const char*, std::string RolloutDevice::*>> fields = {{"host", &RolloutDevice::host},
                                                                                    {"address", &RolloutDevice::address},
                                                                                    {"to", &RolloutDevice::to},
                                                                                    {"image", &RolloutDevice::image}};
  for (const std::string& value : Hostile()) {
    for (const auto& [field, member] : fields) {
      RolloutWave w;
      w.name = "switch-leaf-1";
      w.switches = true;
      RolloutDevice d{"leaf1", "asic", "",   "31.2012.1000", "31.2014.2084", "onyx.mfa", std::string(64, 'c'), "", "",
                      "",      "",     true, "leaf",         "compute",      "10.0.0.1"};
      d.*member = value;
      w.devices = {d};
      Run(std::string(field) + " = " + value, SwitchScript(w), "admin");
    }
  }
}

TEST_F(ScriptsEmit, DrainAndResumeUnderBothSchedulers) {
  for (const char* drain : {"slurm", "kubernetes"}) {
    for (const std::string& value : Hostile()) {
      RolloutPlan plan;
      RolloutWave w;
      w.name = "test";
      w.devices = {Device()};
      w.hosts = {"n1", value};
      w.drain = w.hosts;
      plan.waves.push_back(w);
      RolloutPolicy policy;
      policy.drain = drain;
      const fs::path state = dir_ / "state";
      fs::remove_all(state);
      WriteRolloutState(plan, RolloutTarget{}, policy, state.string());
      for (const char* script : {"wave-00-test-drain.sh", "wave-00-test-resume.sh"}) {
        std::ifstream in(state / script);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        Run(std::string(drain) + " " + script + ": host " + value, text, "ctl");
      }
    }
  }
}

}  // namespace
}  // namespace railyard
