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
  load_mode TEXT,
  lazy_mode TEXT,
  embeddings INTEGER,
  no_op_offload INTEGER,
  no_host INTEGER,
  fit_target INTEGER,
  fit_min_ctx INTEGER,
  n_prompt INTEGER,
  n_gen INTEGER,
  n_depth INTEGER,
  test_time TEXT,
  avg_ns INTEGER,
  stddev_ns INTEGER,
  avg_ts REAL,
  stddev_ts REAL
);

INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '0', '2026-12-05T23:04:57Z', '1232494', '210327', '52901.404207', '8591.973457');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '0', '2026-12-05T23:04:57Z', '4357770', '198351', '3676.574628', '163.907592');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '16', '0', '2026-12-05T23:04:57Z', '5590355', '83049', '14312.477448', '214.013979');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '0', '2026-12-05T23:04:57Z', '700953', '62347', '91764.634583', '7763.645436');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '0', '2026-12-05T23:04:57Z', '3642416', '79695', '4394.080479', '95.412891');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '0', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '16', '0', '2026-12-05T23:04:57Z', '4780063', '31532', '16736.664713', '110.500677');
