#include "serve/access.h"
#include "util/input_error.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(BearerOf, TheSchemeInAnyCase) {
  EXPECT_EQ(BearerOf("Bearer abc"), "abc");
  EXPECT_EQ(BearerOf("bearer abc"), "abc");
  EXPECT_EQ(BearerOf("BEARER   abc  "), "abc");
  EXPECT_EQ(BearerOf("Basic abc"), std::nullopt);
  EXPECT_EQ(BearerOf("Bearer"), std::nullopt);
  EXPECT_EQ(BearerOf("Bearer   "), std::nullopt);
  EXPECT_EQ(BearerOf(""), std::nullopt);
  EXPECT_EQ(BearerOf("Bearerabc"), std::nullopt);
}

TEST(SameSecret, WholeValuesOnly) {
  EXPECT_TRUE(SameSecret("abc", "abc"));
  EXPECT_FALSE(SameSecret("abc", "abd"));
  EXPECT_FALSE(SameSecret("abc", "abcd"));
  EXPECT_FALSE(SameSecret("abcd", "abc"));
  EXPECT_FALSE(SameSecret("", "a"));
}

TEST(CookieValue, FindsTheNamedOne) {
  EXPECT_EQ(CookieValue("a=1; railyard_session=xyz; b=2", "railyard_session"), "xyz");
  EXPECT_EQ(CookieValue("railyard_session=xyz", "railyard_session"), "xyz");
  EXPECT_EQ(CookieValue("xrailyard_session=1", "railyard_session"), "");
  EXPECT_EQ(CookieValue("", "railyard_session"), "");
}

TEST(RandomHex, LengthAndVariety) {
  const std::string a = RandomHex(32), b = RandomHex(32);
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, b);
}

TEST(Token, FileAndStrength) {
  char path[] = "/tmp/railyard-token-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::ofstream(path) << "0123456789abcdef0123\n";
  EXPECT_EQ(ReadTokenFile(path), "0123456789abcdef0123");
  std::ofstream(path) << "";
  EXPECT_THROW(ReadTokenFile(path), std::runtime_error);
  std::ofstream(path) << "a\nb\n";
  EXPECT_THROW(ReadTokenFile(path), std::runtime_error);
  std::remove(path);
  EXPECT_THROW(ReadTokenFile(path), std::runtime_error);
  EXPECT_THROW(CheckToken("s3cret"), UsageError);
  EXPECT_THROW(CheckToken("0123456789abcdef 0123"), UsageError);
  EXPECT_NO_THROW(CheckToken("0123456789abcdef"));
}

TEST(HostAllowList, RefusesNamesNotListed) {
  const HostAllowList allow("0.0.0.0", {"dash.example.org"});
  for (const char* ok : {"127.0.0.1:8080", "127.0.0.1", "10.1.2.3:80", "[::1]:8080", "[fe80::1]", "localhost:8080", "LOCALHOST",
                         "app.localhost:1", "dash.example.org", "Dash.Example.Org.:443"}) {
    EXPECT_TRUE(allow.Allows(ok)) << ok;
  }
  for (const char* bad : {"", "evil.example.com:8080", "evil.example.com", "127.0.0.1.evil.com", "[::1", "[zz]:80",
                          "localhost:80x", "localhost:", "dash.example.org.evil"}) {
    EXPECT_FALSE(allow.Allows(bad)) << bad;
  }
  EXPECT_TRUE(HostAllowList("dash-host", {}).Allows("dash-host:8080"));
}

}  // namespace
}  // namespace railyard
