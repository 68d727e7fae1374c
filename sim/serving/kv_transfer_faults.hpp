#pragma once
// KV transfer timeouts and their fallbacks (serving.kv_transfer_timeout, _retries, _fallback;
// implemented by KvSender, kv_sender.hpp, in kv_transfer_faults.cpp).
//
// The transfer of a request is every KV flow to its decode ranks (each plane, each rank pair,
// each piece). Attempt k starts when its first flow starts (t_k); at t_k + timeout the transfer has
// timed out unless every piece has been handed over and every flow has arrived. Then every flow
// still outstanding is cancelled (net::Network::cancel_flow: it leaves the rate solver, the other
// flows are re-solved) and, by fallback:
//   retry                the whole KV is sent again (attempt k+1, its own deadline), at most
//                        `retries` times; at the next timeout the request fails (cause
//                        kv_transfer_timeout): it leaves its decode instance, frees its reservation
//                        and admission slot, and its client slot;
//   reprefill_on_decode  the decode instance prefills the prompt itself: one pass of the whole
//                        context, P = TimingModel::pass({context new, 0 cached}, 1 finishing), on
//                        its KV kernel stream, so it queues behind the stream's kernels and pauses
//                        decode steps like context loading's aggregated prefill (context_loader.hpp).
//                        At its end the full KV is there: decode_ready_at = full_kv_at = t_k +
//                        timeout + P on an idle GPU. This is vLLM's KVTransferConfig
//                        kv_load_failure_policy "recompute" (vllm/config/kv_transfer.py; its other
//                        value, "fail", is the retry fallback with no retries);
//   commit_on_anchor     for a speculative method whose anchor is in (decode-ready signalled): the
//                        residual is given up and the request stops speculating; its drafts and
//                        every later token are committed at the anchor's precision without
//                        verification (metrics.degraded). Before the anchor is in, as retry.
// Retries keep the decode reservation and admission slot (the decode instance still expects the
// KV); a failure frees both; a re-prefill keeps both until the request finishes.
//
// Bytes (per request; summary.json sums them per method):
//   kv_bytes_sent   = bytes that left a source in this request's KV flows (arrived flows whole,
//                     cancelled ones up to the cancel, net::Network::cancel_flow);
//   kv_bytes_wasted = what the fallback throws away: for retry, re-prefill and failure every byte
//                     of the abandoned attempt (arrived or not); for commit_on_anchor the bytes of
//                     the cancelled residual flows;
//   so sent - wasted is the bytes of the KV that was used (the method's planes once, for a
//   transfer that completed).
// Engines: TensorRT-LLM cancels a request whose KV is not sent or received within
// cache_transceiver_config.kv_transfer_timeout_ms (CacheTransceiverConfig in
// tensorrt_llm/llmapi/llm_args.py; docs/source/features/disagg-serving.md); vLLM's NixlConnector
// expires requests whose KV was not read within VLLM_NIXL_ABORT_REQUEST_TIMEOUT (480 s, vllm/envs.py)
// on the prefill side, and reports failed loads to the scheduler for recompute.
// Assumptions: the timeout starts with the first flow, so with layer-wise streaming it includes
// the prefill of the layers still to come (engines start theirs after the prefill, as after_prefill
// streaming does); control messages and prefix fetches to prefill are not watched; a request served
// aggregated (context loading) is not watched. Cancelling is immediate (no abort message).
