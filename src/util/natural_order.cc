#include "util/natural_order.h"

#include <cctype>

namespace railyard {

bool NaturalLess(std::string_view x, std::string_view y) {
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (digit(x[i]) && digit(y[j])) {
      size_t ie = i, je = j;
      while (ie < x.size() && digit(x[ie])) ++ie;
      while (je < y.size() && digit(y[je])) ++je;
      std::string_view dx = x.substr(i, ie - i), dy = y.substr(j, je - j);
      while (dx.size() > 1 && dx.front() == '0') dx.remove_prefix(1);
      while (dy.size() > 1 && dy.front() == '0') dy.remove_prefix(1);
      if (dx.size() != dy.size()) return dx.size() < dy.size();
      if (dx != dy) return dx < dy;
      i = ie;
      j = je;
    } else {
      if (x[i] != y[j]) return x[i] < y[j];
      ++i;
      ++j;
    }
  }
  return x.size() - i < y.size() - j;
}

}  // namespace railyard
