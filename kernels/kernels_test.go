//go:build cuda

package kernels

import "testing"

// Every .cu file must have been compiled, and each module must export the
// entry points the executor launches.
func TestEmbeddedPTX(t *testing.T) {
	want := map[string][]string{
		"uva_join": {"uva_build", "uva_probe", "uva_read_rate"},
		"star_pipeline": {"star_pipeline_4", "star_pipeline_8", "star_pipeline_scalar_4", "star_pipeline_scalar_8", "star_fast_4", "star_fast_8", "star_fast_16", "star_fast_scalar_4", "star_fast_scalar_8", "star_fast_scalar_16", "group_init",
			"star_fast_8_f0", "star_fast_8_f1", "star_fast_8_f2", "star_fast_8_f3", "star_fast_scalar_8_f0", "star_fast_scalar_8_f1", "star_fast_scalar_8_f2", "star_fast_scalar_8_f3",
			"star_fast_8_f4", "star_fast_8_f5", "star_fast_8_f6", "star_fast_8_f7", "star_fast_scalar_8_f4", "star_fast_scalar_8_f5", "star_fast_scalar_8_f6", "star_fast_scalar_8_f7",
			"star_scan_f0", "star_scan_f32"},
		"bandwidth_probe": {"probe_sum_i32"},
		"hash_build":      {"dim_mark", "dim_build", "fill_i64"},
		"dim_bits":        {"dim_bits", "dim_bits_bounds"},
		"column_cache":    {"narrow_i64_i32"},
		"epsilon_join":    {"epsilon_count", "epsilon_pairs", "epsilon_param_size"},
		"join_partition":  {"join_part_hist", "join_part_scatter", "join_part_map", "join_part_params_size"},
		"merge_path_join": {"mpj_partition", "mpj_search", "mpj_scan_tiles", "mpj_scan_apply", "mpj_expand_partition", "mpj_expand", "mpj_param_sizes"},
	}
	for mod, fns := range want {
		if PTX(mod) == nil {
			t.Fatalf("module %s not embedded (run make ptx)", mod)
		}
		have := map[string]bool{}
		for _, f := range Functions(mod) {
			have[f] = true
		}
		for _, f := range fns {
			if !have[f] {
				t.Errorf("module %s lacks kernel %s (has %v)", mod, f, Functions(mod))
			}
		}
	}
}
