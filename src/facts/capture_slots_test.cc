#include "facts/capture_slots.h"

#include <set>
#include <string_view>

#include <gtest/gtest.h>

#include "util/file.h"

namespace railyard {
namespace {

// A per-object prefix is matched in table order, so one that another starts with must come after
// it: "ethtool-" before "ethtool-S-" would read every ethtool -S capture as `ethtool IF`.
TEST(CaptureSlots, NoPrefixShadowsALaterOne) {
  const std::vector<CaptureSlot>& slots = CaptureSlots();
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].kind != SlotKind::kPerObject) continue;
    for (size_t j = i + 1; j < slots.size(); ++j) {
      if (slots[j].kind != SlotKind::kPerObject) continue;
      const std::string_view earlier = slots[i].names[0], later = slots[j].names[0];
      EXPECT_FALSE(later.starts_with(earlier) && std::string_view(slots[i].suffix) == slots[j].suffix)
          << earlier << " comes before " << later << ", which it would shadow";
    }
  }
}

// Each slot is what it says: one name for one file, a member to read into, a command to make it.
TEST(CaptureSlots, EveryNameOnceWithAMemberAndACommand) {
  std::set<std::string> seen;
  for (const std::string& name : ExampleCaptureFileNames()) EXPECT_TRUE(seen.insert(name).second) << name << " twice";
  for (const CaptureSlot& s : CaptureSlots()) {
    ASSERT_FALSE(s.names.empty());
    EXPECT_NE(std::string(s.command), "") << s.names[0];
    if (s.kind == SlotKind::kFixed) {
      EXPECT_NE(s.text, nullptr) << s.names[0];
    }
    if (s.kind == SlotKind::kPerObject || s.kind == SlotKind::kConfig) {
      EXPECT_NE(s.per_object, nullptr) << s.names[0];
      EXPECT_NE(std::string(s.example), "") << s.names[0];
      EXPECT_NE(std::string(s.object), "") << s.names[0];
    }
  }
}

// docs/facts.md, where a user preparing a capture by hand looks, names every slot as the table does.
TEST(CaptureSlots, DocsFactsNamesEverySlot) {
  const std::string docs = ReadWholeFile(std::string(RAILYARD_SOURCE_DIR) + "/docs/facts.md");
  for (const CaptureSlot& s : CaptureSlots()) {
    for (const std::string& name : DocumentedNames(s)) {
      EXPECT_NE(docs.find("`" + name + "`"), std::string::npos) << name << " is not in docs/facts.md (as `" << name << "`)";
    }
  }
}

// Live commands run in table order: a fallback after every slot it stands in for, a per-CA command after
// ibstat, each into a member that fits its scope.
TEST(CaptureSlots, LiveCommandsComeAfterWhatTheyDependOnAndFillTheirMember) {
  const std::vector<CaptureSlot>& slots = CaptureSlots();
  for (size_t i = 0; i < slots.size(); ++i) {
    const CaptureSlot& s = slots[i];
    const LiveCommand& live = s.live;
    SCOPED_TRACE(s.names[0]);
    if (live.scope == LiveScope::kNone) {
      EXPECT_TRUE(live.argv.empty() && live.also.empty() && live.unless.empty());
      continue;
    }
    ASSERT_FALSE(live.argv.empty());
    const bool per_object = live.scope != LiveScope::kOnce;
    EXPECT_EQ(per_object, s.per_object != nullptr) << "a per-object command fills a map, a single one a text or identity";
    for (auto member : live.unless) {
      bool earlier = false;
      for (size_t j = 0; j < i; ++j) earlier |= slots[j].text == member && slots[j].live.scope != LiveScope::kNone;
      EXPECT_TRUE(earlier) << "a fallback for a slot that runs later (or not live) is always run";
    }
    if (live.scope == LiveScope::kEachIbstatCa) {
      bool ibstat_before = false;
      for (size_t j = 0; j < i; ++j) ibstat_before |= slots[j].text == &CollectInputs::ibstat;
      EXPECT_TRUE(ibstat_before);
    }
  }
}

// docs/facts.md says what live collection runs: every live command, as the table words it.
TEST(CaptureSlots, DocsFactsNamesEveryLiveCommand) {
  const std::string docs = ReadWholeFile(std::string(RAILYARD_SOURCE_DIR) + "/docs/facts.md");
  for (const CaptureSlot& s : CaptureSlots()) {
    const std::string live = LiveCommandText(s);
    if (!live.empty()) {
      EXPECT_NE(docs.find("`" + live + "`"), std::string::npos) << live << " is not in docs/facts.md";
    }
  }
}

TEST(CaptureSlots, TheListNamesEveryFileAndItsCommand) {
  const std::string table = CaptureSlotsTable();
  for (const CaptureSlot& s : CaptureSlots()) {
    for (const std::string& name : DocumentedNames(s)) EXPECT_NE(table.find(name + " "), std::string::npos) << name;
  }
  EXPECT_NE(table.find("ethtool-S-<if>.txt"), std::string::npos);
  EXPECT_NE(table.find("ethtool -S IF"), std::string::npos);
  EXPECT_NE(table.find("mstflint -d BDF q"), std::string::npos);
  EXPECT_NE(table.find("reads /sys/class/dmi/id"), std::string::npos);
  EXPECT_NE(table.find("not collected live"), std::string::npos);
}

}  // namespace
}  // namespace railyard
