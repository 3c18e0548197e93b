// JSON documents described once, as a table of fields, instead of a writer and a reader kept in step
// by hand. A struct is described by specialising JsonTable:
//
//   template <> struct JsonTable<MstDevice> {
//     static constexpr auto fields = std::make_tuple(Key("mst_path", &MstDevice::mst_path),
//                                                    Key("numa", &MstDevice::numa), ...);
//   };
//
// and JsonCodec<T> then writes it (to nlohmann::json, whose objects keep keys sorted) and reads it
// (from a simdjson DOM element: the whole document is validated before a field is believed, so a
// truncated line is refused whole rather than half read). Strings, bools, numbers (range-checked into
// the member's type), std::optional (JSON null when empty), vectors, std::arrays and string-keyed
// maps are built in; anything else gets a JsonCodec specialisation of its own.
//
// Reading: keys are matched in the order the table lists them, starting after the last one matched,
// so a document written in the table's order costs one comparison per key. A key the table does not
// know is ignored (a newer writer's addition); a required key that is missing, a value of the wrong
// type or out of range throws JsonFieldError naming the path ("netdevs[3].mtu: expected an unsigned
// integer").
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <simdjson.h>
#include <nlohmann/json.hpp>

#include "util/input_error.h"

namespace railyard {

// Where a value did not fit its field. what() is "PATH: MESSAGE"; the path grows outward as the
// error passes each enclosing key or index.
// An InputError (what a tool or a person wrote): a document read back is input, whoever wrote it.
class JsonFieldError : public InputError {
 public:
  JsonFieldError(std::string path, std::string message)
      : InputError(path.empty() ? message : path + ": " + message), path_(std::move(path)), message_(std::move(message)) {}
  const std::string& path() const { return path_; }
  const std::string& message() const { return message_; }
  // The same error one level out: under `key` ("mtu" -> "netdevs[3].mtu" once "[3]" and "netdevs" are added).
  JsonFieldError Under(std::string_view key) const {
    std::string p(key);
    if (!path_.empty()) p += path_.front() == '[' ? path_ : "." + path_;
    return JsonFieldError(std::move(p), message_);
  }

 private:
  std::string path_;
  std::string message_;
};

// Required: the reader refuses a document without the key. Optional: the key was added within the
// schema's version, so older documents lack it and the member keeps its default.
enum class Presence { kRequired, kOptional };

// One field: its key, how to reach the member from the struct (a callable taking S& or const S&),
// whether it may be absent, and the codec that reads and writes it (void: JsonCodec of the member).
template <typename Access, typename Codec = void>
struct JsonField {
  std::string_view key;
  Access access;
  Presence presence = Presence::kRequired;
};

// A field that is a data member.
template <typename S, typename M>
constexpr auto Key(std::string_view key, M S::*member, Presence presence = Presence::kRequired) {
  auto access = [member](auto& s) -> auto& { return s.*member; };
  return JsonField<decltype(access)>{key, access, presence};
}
// A field reached another way (a member of a member); `access` is a generic lambda returning a reference.
template <typename Access>
constexpr auto KeyVia(std::string_view key, Access access, Presence presence = Presence::kRequired) {
  return JsonField<Access>{key, access, presence};
}
// A field read and written by `Codec` rather than by its type's JsonCodec.
template <typename Codec, typename Access>
constexpr auto KeyWith(std::string_view key, Access access, Presence presence = Presence::kRequired) {
  return JsonField<Access, Codec>{key, access, presence};
}

template <typename T>
struct JsonTable;  // specialised per described struct: static constexpr auto fields = std::make_tuple(...)

template <typename T>
concept JsonDescribed = requires {
  JsonTable<T>::fields;
};

template <typename T, typename Enable = void>
struct JsonCodec;  // static nlohmann::json Write(const T&); static void Read(simdjson::dom::element, T&)

namespace json_fields_detail {

[[noreturn]] inline void Expected(const char* what) { throw JsonFieldError("", std::string("expected ") + what); }

template <typename F>
struct CodecOf;
template <typename Access>
struct CodecOf<JsonField<Access, void>> {
  template <typename M>
  using type = JsonCodec<std::remove_cvref_t<M>>;
};
template <typename Access, typename Codec>
struct CodecOf<JsonField<Access, Codec>> {
  template <typename M>
  using type = Codec;
};

}  // namespace json_fields_detail

template <>
struct JsonCodec<std::string> {
  static nlohmann::json Write(const std::string& v) { return v; }
  static void Read(simdjson::dom::element e, std::string& out) {
    std::string_view s;
    if (e.get(s)) json_fields_detail::Expected("a string");
    out.assign(s.data(), s.size());
  }
};

template <>
struct JsonCodec<bool> {
  static nlohmann::json Write(bool v) { return v; }
  static void Read(simdjson::dom::element e, bool& out) {
    if (e.get(out)) json_fields_detail::Expected("true or false");
  }
};

template <typename T>
struct JsonCodec<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static nlohmann::json Write(T v) { return v; }
  static void Read(simdjson::dom::element e, T& out) {
    if constexpr (std::is_signed_v<T>) {
      int64_t v = 0;
      if (e.get(v)) json_fields_detail::Expected("an integer");
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
        json_fields_detail::Expected("an integer in range");
      out = static_cast<T>(v);
    } else {
      uint64_t v = 0;
      if (e.get(v)) json_fields_detail::Expected("an unsigned integer");
      if (v > std::numeric_limits<T>::max()) json_fields_detail::Expected("an unsigned integer in range");
      out = static_cast<T>(v);
    }
  }
};

template <>
struct JsonCodec<double> {
  static nlohmann::json Write(double v) { return v; }
  static void Read(simdjson::dom::element e, double& out) {
    if (e.get(out)) json_fields_detail::Expected("a number");  // integers too
  }
};

template <typename T>
struct JsonCodec<std::optional<T>> {
  static nlohmann::json Write(const std::optional<T>& v) { return v ? JsonCodec<T>::Write(*v) : nlohmann::json(nullptr); }
  static void Read(simdjson::dom::element e, std::optional<T>& out) {
    if (e.is_null()) {
      out.reset();
      return;
    }
    T v{};
    JsonCodec<T>::Read(e, v);
    out = std::move(v);
  }
};

namespace json_fields_detail {

template <typename Each>
void ReadArray(simdjson::dom::element e, Each&& each) {
  simdjson::dom::array a;
  if (e.get(a)) Expected("an array");
  size_t i = 0;
  for (simdjson::dom::element item : a) {
    try {
      each(i, item);
    } catch (const JsonFieldError& error) {
      throw error.Under("[" + std::to_string(i) + "]");
    }
    ++i;
  }
}

}  // namespace json_fields_detail

template <typename T>
struct JsonCodec<std::vector<T>> {
  static nlohmann::json Write(const std::vector<T>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (const T& item : v) out.push_back(JsonCodec<T>::Write(item));
    return out;
  }
  static void Read(simdjson::dom::element e, std::vector<T>& out) {
    out.clear();
    json_fields_detail::ReadArray(e, [&](size_t, simdjson::dom::element item) { JsonCodec<T>::Read(item, out.emplace_back()); });
  }
};

template <typename T, size_t N>
struct JsonCodec<std::array<T, N>> {
  static nlohmann::json Write(const std::array<T, N>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (const T& item : v) out.push_back(JsonCodec<T>::Write(item));
    return out;
  }
  static void Read(simdjson::dom::element e, std::array<T, N>& out) {
    size_t count = 0;
    json_fields_detail::ReadArray(e, [&](size_t i, simdjson::dom::element item) {
      if (i >= N) json_fields_detail::Expected(("an array of " + std::to_string(N)).c_str());
      JsonCodec<T>::Read(item, out[i]);
      ++count;
    });
    if (count != N) json_fields_detail::Expected(("an array of " + std::to_string(N)).c_str());
  }
};

template <typename T>
struct JsonCodec<std::map<std::string, T>> {
  static nlohmann::json Write(const std::map<std::string, T>& v) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : v) out[key] = JsonCodec<T>::Write(item);
    return out;
  }
  static void Read(simdjson::dom::element e, std::map<std::string, T>& out) {
    simdjson::dom::object o;
    if (e.get(o)) json_fields_detail::Expected("an object");
    out.clear();
    for (auto [key, value] : o) {
      try {
        JsonCodec<T>::Read(value, out[std::string(key)]);
      } catch (const JsonFieldError& error) {
        throw error.Under(key);
      }
    }
  }
};

// A struct described by `Table` (JsonTable<S> unless another table describes a part of it, as a
// section of a document).
template <typename S, typename Table = JsonTable<S>>
struct JsonTableCodec {
  static constexpr auto& fields = Table::fields;
  static constexpr size_t kCount = std::tuple_size_v<std::remove_cvref_t<decltype(Table::fields)>>;

  static nlohmann::json Write(const S& s) {
    nlohmann::json out = nlohmann::json::object();
    WriteAll(s, out, std::make_index_sequence<kCount>());
    return out;
  }

  static void Read(simdjson::dom::element e, S& out) {
    simdjson::dom::object o;
    if (e.get(o)) json_fields_detail::Expected("an object");
    std::array<bool, kCount> seen{};
    size_t cursor = 0;
    for (auto [key, value] : o) {
      for (size_t k = 0; k < kCount; ++k) {
        const size_t i = cursor + k < kCount ? cursor + k : cursor + k - kCount;
        if (kKeys[i] != key) continue;
        try {
          kReaders[i](value, out);
        } catch (const JsonFieldError& error) {
          throw error.Under(key);
        }
        seen[i] = true;
        cursor = i + 1 == kCount ? 0 : i + 1;
        break;
      }
    }
    for (size_t i = 0; i < kCount; ++i) {
      if (!seen[i] && kPresence[i] == Presence::kRequired) throw JsonFieldError(std::string(kKeys[i]), "missing");
    }
  }

 private:
  using Reader = void (*)(simdjson::dom::element, S&);

  template <size_t I>
  static void ReadOne(simdjson::dom::element e, S& s) {
    const auto& field = std::get<I>(fields);
    auto& member = field.access(s);
    using Codec = typename json_fields_detail::CodecOf<std::remove_cvref_t<decltype(field)>>::template type<decltype(member)>;
    Codec::Read(e, member);
  }
  template <size_t... I>
  static void WriteAll(const S& s, nlohmann::json& out, std::index_sequence<I...>) {
    (WriteOne<I>(s, out), ...);
  }
  template <size_t I>
  static void WriteOne(const S& s, nlohmann::json& out) {
    const auto& field = std::get<I>(fields);
    const auto& member = field.access(s);
    using Codec = typename json_fields_detail::CodecOf<std::remove_cvref_t<decltype(field)>>::template type<decltype(member)>;
    out[std::string(field.key)] = Codec::Write(member);
  }
  template <size_t... I>
  static constexpr std::array<std::string_view, kCount> Keys(std::index_sequence<I...>) {
    return {std::get<I>(fields).key...};
  }
  template <size_t... I>
  static constexpr std::array<Presence, kCount> Presences(std::index_sequence<I...>) {
    return {std::get<I>(fields).presence...};
  }
  template <size_t... I>
  static constexpr std::array<Reader, kCount> Readers(std::index_sequence<I...>) {
    return {&ReadOne<I>...};
  }
  static constexpr std::array<std::string_view, kCount> kKeys = Keys(std::make_index_sequence<kCount>());
  static constexpr std::array<Presence, kCount> kPresence = Presences(std::make_index_sequence<kCount>());
  static constexpr std::array<Reader, kCount> kReaders = Readers(std::make_index_sequence<kCount>());
};

template <JsonDescribed S>
struct JsonCodec<S> : JsonTableCodec<S> {};

}  // namespace railyard
