CREATE TABLE IF NOT EXISTS llama_bench (
  build_commit TEXT,
  build_number INTEGER,
  cpu_info TEXT,
  gpu_info TEXT,
  backends TEXT,
  model_filename TEXT,
  model_type TEXT,
  model_size INTEGER,
  model_n_params INTEGER,
  n_batch INTEGER,
  n_ubatch INTEGER,
  n_threads INTEGER,
  cpu_mask TEXT,
  cpu_strict INTEGER,
  poll INTEGER,
  type_k TEXT,
  type_v TEXT,
  n_gpu_layers INTEGER,
  n_cpu_moe INTEGER,
  split_mode TEXT,
  main_gpu INTEGER,
  no_kv_offload INTEGER,
  flash_attn INTEGER,
  devices TEXT,
  tensor_split TEXT,
  tensor_buft_overrides TEXT,
  use_mmap INTEGER,
  use_direct_io INTEGER,
  embeddings INTEGER,
  no_op_offload INTEGER,
  no_host INTEGER,
  n_prompt INTEGER,
  n_gen INTEGER,
  n_depth INTEGER,
  test_time TEXT,
  avg_ns INTEGER,
  stddev_ns INTEGER,
  avg_ts REAL,
  stddev_ts REAL
);

INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '64', '0', '0', '2026-12-05T23:04:57Z', '1260498', '155861', '51261.237359', '5916.042604');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '0', '16', '0', '2026-12-05T23:04:57Z', '4291183', '92687', '3729.733544', '80.424416');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '64', '16', '0', '2026-12-05T23:04:57Z', '5472103', '111006', '14623.597012', '294.985103');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '64', '0', '0', '2026-12-05T23:04:57Z', '714202', '31093', '89726.482017', '3999.126332');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '0', '16', '0', '2026-12-05T23:04:57Z', '3701151', '99570', '4325.055392', '115.755672');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, use_mmap, use_direct_io, embeddings, no_op_offload, no_host, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('b10e98a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', '1', '0', '0', '0', '0', '64', '16', '0', '2026-12-05T23:04:57Z', '4887796', '72217', '16369.671600', '241.266084');
