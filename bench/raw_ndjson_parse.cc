// The floor railyard's readers of NDJSON are measured against (bench/doctor_bench.sh): simdjson's
// own DOM parse of every document in the file, doing nothing with them, as a user's quickest
// hand-written tool would. Prints the documents parsed.
// Usage: raw_ndjson_parse FILE
#include <cstdio>

#include <simdjson.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: raw_ndjson_parse FILE\n");
    return 2;
  }
  simdjson::padded_string text;
  if (simdjson::padded_string::load(argv[1]).get(text)) {
    std::fprintf(stderr, "raw_ndjson_parse: cannot read %s\n", argv[1]);
    return 2;
  }
  simdjson::dom::parser parser;
  simdjson::dom::document_stream documents;
  if (parser.parse_many(text, 16u << 20).get(documents)) return 1;
  size_t count = 0;
  for (auto document : documents) {
    simdjson::dom::element root;
    if (document.get(root)) {
      std::fprintf(stderr, "raw_ndjson_parse: document %zu: not JSON\n", count + 1);
      return 1;
    }
    ++count;
  }
  std::printf("%zu documents\n", count);
  return 0;
}
