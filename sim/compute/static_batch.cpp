#include "sim/compute/static_batch.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace lynxsim {

Time static_batch_time(const TimingModel& timing, const StaticBatch& batch) {
  if (batch.sequences < 1 || batch.prompt_tokens < 1 || batch.output_tokens < 1) {
    throw std::invalid_argument("a static batch needs sequences, prompt and output tokens >= 1");
  }
  const std::vector<SequenceChunk> prompts(static_cast<std::size_t>(batch.sequences),
                                           SequenceChunk{batch.prompt_tokens, 0});
  Time total = timing.pass(prompts, batch.sequences).time;
  const TimingModel::DecodeSteps steps = timing.decode_steps(batch.sequences);
  const std::int64_t sequences = batch.sequences;
  for (int j = 1; j < batch.output_tokens; ++j) {
    total = total + steps.time(sequences * (std::int64_t{batch.prompt_tokens} + j - 1));
  }
  return total;
}

}  // namespace lynxsim
