#include "util/secret_mask.h"

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(MaskSecrets, EveryPostgresForm) {
  EXPECT_EQ(MaskSecrets("postgresql://ops:hunter2@db1:5432/ledger"), "postgresql://ops:***@db1:5432/ledger");
  EXPECT_EQ(MaskSecrets("postgres://ops:p@ss@db1/ledger"), "postgres://ops:***@db1/ledger");
  EXPECT_EQ(MaskSecrets("postgresql://db1/ledger?user=ops&password=hunter2&sslmode=require"),
            "postgresql://db1/ledger?user=ops&password=***&sslmode=require");
  EXPECT_EQ(MaskSecrets("host=db1 dbname=ledger password=hunter2 user=ops"), "host=db1 dbname=ledger password=*** user=ops");
  EXPECT_EQ(MaskSecrets("host=db1 password = 'it\\'s secret' user=ops"), "host=db1 password =*** user=ops");
  EXPECT_EQ(MaskSecrets("PASSWORD=Hunter2"), "PASSWORD=***");
  EXPECT_EQ(MaskSecrets("sslpassword=k3y host=x"), "sslpassword=*** host=x");
  EXPECT_EQ(MaskSecrets("error: postgresql://ops:hunter2@db1/x: connection refused"),
            "error: postgresql://ops:***@db1/x: connection refused");
}

TEST(MaskSecrets, LeavesOtherTextAlone) {
  for (const char* same : {"postgresql://ops@db1/ledger", "ledger.db", "the password is required", "mypassword=x",
                           "https://example.com/a?b=c", ""}) {
    EXPECT_EQ(MaskSecrets(same), same);
  }
  EXPECT_EQ(MaskSecrets("postgresql://ops:hunter2@db1/x").find("hunter2"), std::string::npos);
}

TEST(IsPostgresConninfo, UrlsAndKeywordsButNotFiles) {
  EXPECT_TRUE(IsPostgresConninfo("postgresql://db1/ledger"));
  EXPECT_TRUE(IsPostgresConninfo("postgres://db1/ledger"));
  EXPECT_TRUE(IsPostgresConninfo("host=db1 dbname=ledger"));
  EXPECT_TRUE(IsPostgresConninfo("  dbname = ledger"));
  EXPECT_FALSE(IsPostgresConninfo("ledger.db"));
  EXPECT_FALSE(IsPostgresConninfo("/var/lib/railyard/ledger.db"));
  EXPECT_FALSE(IsPostgresConninfo("color=blue.db"));
}

}  // namespace
}  // namespace railyard
