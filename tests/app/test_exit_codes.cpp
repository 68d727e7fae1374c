#include <doctest/doctest.h>

#include <cerrno>
#include <new>
#include <stdexcept>

#include "sim/app/input_errors.hpp"
#include "sim/io/input_file.hpp"
#include "sim/llm/gguf_value.hpp"
#include "sim/report/atomic_write.hpp"
#include "sim/scenario/scenario_error.hpp"

using namespace lynxsim;

TEST_CASE("bad input exits 2, a broken invariant 70, other failures 1") {
  CHECK(app::exit_code_of(app::InputError("no such model")) == 2);
  CHECK(app::exit_code_of(scenario::ScenarioError("s.json", {{"/model", "unknown"}})) == 2);
  CHECK(app::exit_code_of(std::invalid_argument("tp must be >= 1")) == 2);
  CHECK(app::exit_code_of(app::InternalError("negative queue length")) == 70);
  CHECK(app::exit_code_of(std::runtime_error("disk full")) == 1);
}

TEST_CASE("unreadable files, malformed models, unwritable paths and allocation failures are bad input") {
  CHECK(app::exit_code_of(io::InputFileError("kv.safetensors: cannot read the file: it is a FIFO")) == 2);
  CHECK(app::exit_code_of(llm::GgufError("model.gguf: malformed GGUF at byte 8")) == 2);
  CHECK(app::exit_code_of(report::ReportWriteError("cannot create /proc/x", ENOENT)) == 2);
  CHECK(app::exit_code_of(report::ReportWriteError("cannot write out/summary.json", ENOSPC)) == 1);
  CHECK(app::exit_code_of(std::bad_alloc()) == 2);
  CHECK(app::exit_code_of(std::length_error("vector::reserve")) == 2);
  CHECK(app::exit_code_of(std::out_of_range("map::at")) == 70);
}

TEST_CASE("an allocation failure names what the command was building when it happened") {
  try {
    const app::AllocationScope outer("loading scenario s.json");
    const app::AllocationScope inner("simulating method int8 (10000000 requests)");
    throw std::bad_alloc();
  } catch (const std::exception& e) {
    CHECK(app::error_message(e).find("out of memory while simulating method int8 (10000000 requests)") == 0);
  }
  const app::AllocationScope next("loading scenario t.json");
  CHECK(app::allocation_failure_message().find("while loading scenario t.json") != std::string::npos);
}

TEST_CASE("error messages reach the terminal with control characters escaped") {
  CHECK(app::error_message(app::InputError("s.json: /name: \x1b[2J\nsecond line")) ==
        "s.json: /name: \\x1b[2J\nsecond line");
  CHECK(app::error_message(app::InternalError("x")) == "internal error: x");
}
