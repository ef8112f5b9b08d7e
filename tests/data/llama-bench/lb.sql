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

INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '0', '2026-11-30T18:28:27Z', '4222549', '303329', '15208.240365', '1076.608191');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '128', '0', '0', '2026-11-30T18:28:27Z', '6674515', '154185', '19184.159348', '437.389254');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '0', '2026-11-30T18:28:27Z', '69000320', '21874523', '249.902887', '86.509513');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '512', '2026-11-30T18:28:28Z', '10753754', '4023910', '6517.660697', '2318.381850');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '128', '0', '512', '2026-11-30T18:28:28Z', '18487658', '4461741', '7167.948287', '1519.235354');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '0', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '512', '2026-11-30T18:28:28Z', '69127513', '17967340', '244.384318', '74.625027');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '0', '2026-11-30T18:28:28Z', '4160759', '2778824', '19594.439557', '9471.903324');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '128', '0', '0', '2026-11-30T18:28:28Z', '9172308', '5859611', '20561.547654', '16491.759211');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '0', '2026-11-30T18:28:28Z', '80726653', '15463741', '202.673703', '35.043260');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '64', '0', '512', '2026-11-30T18:28:28Z', '9317055', '261712', '6872.794674', '196.079956');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '128', '0', '512', '2026-11-30T18:28:28Z', '13731956', '3015904', '9641.207441', '2201.476006');
INSERT INTO llama_bench (build_commit, build_number, cpu_info, gpu_info, backends, model_filename, model_type, model_size, model_n_params, n_batch, n_ubatch, n_threads, cpu_mask, cpu_strict, poll, type_k, type_v, n_gpu_layers, n_cpu_moe, split_mode, main_gpu, no_kv_offload, flash_attn, devices, tensor_split, tensor_buft_overrides, load_mode, lazy_mode, embeddings, no_op_offload, no_host, fit_target, fit_min_ctx, n_prompt, n_gen, n_depth, test_time, avg_ns, stddev_ns, avg_ts, stddev_ts) VALUES ('80fb11a', '1', 'Intel(R) Xeon(R) Processor', '', 'CPU', 'tiny.gguf', 'llama ?B F16', '8357120', '4178240', '2048', '512', '1', '0x0', '0', '50', 'f16', 'f16', '-1', '0', 'layer', '0', '0', '1', 'auto', '0.00', 'none', 'auto', 'auto', '0', '0', '0', '0', '0', '0', '16', '512', '2026-11-30T18:28:28Z', '78884679', '7699758', '204.097497', '19.540162');
