// libFuzzer target of every file reader besides the scenario's own JSON: the first byte picks the
// reader, the rest is the file's content, written to a scratch file and read as a run reads it:
// request traces (mooncake, azure, splitwise), length files, bandwidth traces, flow lists (JSON,
// CSV), KV files (safetensors; a folder of .npy), GGUF models and measurement-cache entries.
// A reader may refuse its input with its documented error (std::runtime_error or
// std::invalid_argument, each naming the file: exit 2 in the tool); any other exception, a crash,
// a hang, an allocation beyond -rss_limit_mb or a sanitizer report is a finding.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "sim/llm/gguf_file.hpp"
#include "sim/scenario/flow_list_file.hpp"
#include "sim/scenario/length_file.hpp"
#include "sim/scenario/topology_json.hpp"
#include "sim/scenario/workload_trace.hpp"
#include "sim/store/cache_file.hpp"
#include "sim/store/kv_file.hpp"

namespace {

namespace fs = std::filesystem;
using lynxsim::scenario::TraceFormat;

const fs::path& scratch() {
  static const fs::path dir = fs::temp_directory_path() / ("lynxsim-fuzz-" + std::to_string(::getpid()));
  return dir;
}

fs::path write_file(const fs::path& file, const std::uint8_t* data, std::size_t size) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                               static_cast<std::streamsize>(size));
  return file;
}

void read_with(std::uint8_t reader, const std::uint8_t* data, std::size_t size) {
  const fs::path& dir = scratch();
  switch (reader % 10) {
    case 0: lynxsim::scenario::read_trace(write_file(dir / "t.jsonl", data, size), TraceFormat::mooncake); break;
    case 1: lynxsim::scenario::read_trace(write_file(dir / "t.csv", data, size), TraceFormat::azure); break;
    case 2: lynxsim::scenario::read_trace(write_file(dir / "t.csv", data, size), TraceFormat::splitwise); break;
    case 3: lynxsim::scenario::read_length_file(write_file(dir / "lengths.txt", data, size)); break;
    case 4: lynxsim::scenario::load_bandwidth_trace_csv(write_file(dir / "bw.csv", data, size).string()); break;
    case 5: lynxsim::scenario::load_flow_list(write_file(dir / "flows.json", data, size).string()); break;
    case 6: lynxsim::scenario::load_flow_list(write_file(dir / "flows.csv", data, size).string()); break;
    case 7: lynxsim::store::KvFile::open(write_file(dir / "kv.safetensors", data, size).string()); break;
    case 8: {
      fs::remove_all(dir / "npy");
      write_file(dir / "npy" / "k_0.npy", data, size);
      lynxsim::store::KvFile::open((dir / "npy").string());
      break;
    }
    default: lynxsim::llm::GgufFile::read(write_file(dir / "model.gguf", data, size)); break;
  }
}

void read_cache_entry(const std::uint8_t* data, std::size_t size) {
  const std::string key = "fuzz";
  write_file(lynxsim::store::cache_file_path((scratch() / "cache").string(), key), data, size);
  (void)lynxsim::store::load_cache_entry((scratch() / "cache").string(), key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    if (data[0] == 0xff) {
      read_cache_entry(data + 1, size - 1);
    } else {
      read_with(data[0], data + 1, size - 1);
    }
  } catch (const std::invalid_argument&) {
    return 0;
  } catch (const std::runtime_error&) {
    return 0;
  }
  return 0;
}
