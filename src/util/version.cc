#include "util/version.h"

namespace railyard {

std::string VersionLine() {
  return std::string("railyard ") + kVersion + " (commit " + std::string(GitCommit()) + ", catalog " +
         std::string(CatalogDate()) + ")";
}

}  // namespace railyard
