// Modules Triton 3.6 rejects, each for one of its verifiers' rules (issue 14); ctriton must
// refuse each with the error that the `// error:` comment names, on the line below it.
// test_triton_rules checks that; scripts/triton_lit.py --src tests/text/rules checks that
// Triton rejects them too.

module {
  tt.func @desc_store_reshaped(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32, %v: tensor<256xf32>) {
    // error: only leading dimensions of 1 may be dropped
    tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<256xf32>
    tt.return
  }
}

// -----
module {
  tt.func @desc_load_lead(%d: !tt.tensordesc<tensor<2x8xf32>>, %i: i32) {
    // error: only leading dimensions of 1 may be dropped
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x8xf32>> -> tensor<16xf32>
    tt.return
  }
}

// -----
module {
  tt.func @desc_load_shape(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32) {
    // error: must have the same shape
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<32x8xf32>
    tt.return
  }
}

// -----
module {
  tt.func @desc_store_elem(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32, %v: tensor<16x16xf16>) {
    // error: element types must match
    tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf16>
    tt.return
  }
}

// -----
module {
  tt.func @map_store(%ptr: tensor<256x!tt.ptr<i32>>, %v: tensor<256xi32>) {
    %0 = "tt.map_elementwise"(%ptr, %v) <{pack = 1 : i32}> ({
    ^bb0(%p: !tt.ptr<i32>, %x: i32):
      // error: stores are not supported inside tt.map_elementwise
      tt.store %p, %x : !tt.ptr<i32>
      tt.map_elementwise.return %x : i32
    }) : (tensor<256x!tt.ptr<i32>>, tensor<256xi32>) -> tensor<256xi32>
    tt.return
  }
}

// -----
module {
  tt.func @map_print(%v: tensor<256xi32>, %c: i1) {
    %0 = "tt.map_elementwise"(%v) <{pack = 1 : i32}> ({
    ^bb0(%x: i32):
      scf.if %c {
        // error: stores are not supported inside tt.map_elementwise
        tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : i32
      }
      tt.map_elementwise.return %x : i32
    }) : (tensor<256xi32>) -> tensor<256xi32>
    tt.return
  }
}

// -----
module {
  tt.func @asm_scalar_to_tensor(%a: i32) {
    // error: if a result is a tensor, at least one operand must be a tensor
    %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %a : i32 -> tensor<4xi32>
    tt.return
  }
}

// -----
module {
  tt.func @asm_shapes(%a: tensor<128xi32>, %b: tensor<64xi32>) {
    // error: all tensor operands and results must have the same shape
    %0 = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %a, %b : tensor<128xi32>, tensor<64xi32> -> tensor<128xi32>
    tt.return
  }
}

// -----
module {
  tt.func @asm_packed(%a: tensor<128xi32>) {
    // error: must be a multiple of the op's packed_element attribute, 3
    %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %a : tensor<128xi32> -> tensor<128xi32>
    tt.return
  }
}

// -----
module {
  tt.func @extern_tensor_from_scalars(%a: f32) {
    // error: if a result is a tensor, at least one operand must be a tensor
    %0 = tt.extern_elementwise %a, %a {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (f32, f32) -> tensor<4xf32>
    tt.return
  }
}

// -----
module {
  tt.func @join_shape(%a: tensor<32xf32>, %b: tensor<32xf32>) {
    // error: result shape must be the operands' shape with a minor dimension of 2
    %0 = tt.join %a, %b : tensor<32xf32> -> tensor<2x32xf32>
    tt.return
  }
}

// -----
module {
  tt.func @unsplat_two(%a: tensor<2xf32>) {
    // error: source tensor must have exactly one element
    %0 = tt.unsplat %a : tensor<2xf32>
    tt.return
  }
}

// -----
module {
  tt.func @gather_axis(%src: tensor<16x8xf32>, %idx: tensor<16x8xi32>) {
    // error: gather dimension 2 must be less than the input rank 2
    %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<16x8xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
    tt.return
  }
}

// -----
module {
  tt.func @gather_result(%src: tensor<16x8xf32>, %idx: tensor<4x8xi32>) {
    // error: indices and output shapes must match
    %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<4x8xi32>) -> tensor<8x8xf32>
    tt.return
  }
}

// -----
module {
  tt.func @desc_gather_rows(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<4xi32>, %y: i32) {
    // error: must have at least 8 rows, but got 4
    %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<4xi32>, i32) -> tensor<4x128xbf16>
    tt.return
  }
}

// -----
module {
  tt.func @desc_gather_block(%d: !tt.tensordesc<tensor<2x128xbf16>>, %x: tensor<8xi32>, %y: i32) {
    // error: descriptor block must be a 2-d tensor of exactly 1 row
    %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x128xbf16>>, tensor<8xi32>, i32) -> tensor<8x128xbf16>
    tt.return
  }
}

// -----
module {
  tt.func @trans_order(%a: tensor<4x8xf32>) {
    // error: order is not a permutation
    %0 = tt.trans %a {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>
    tt.return
  }
}

// -----
module {
  tt.func @expand_axis(%a: tensor<8xf32>) {
    // error: with axis 2 does not give
    %0 = tt.expand_dims %a {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
    tt.return
  }
}

// -----
module {
  tt.func @range_length() {
    // error: range [0, 32) does not fit tensor<16xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<16xi32>
    tt.return
  }
}

// -----
module {
  tt.func @extf_narrowing(%a: f32) {
    // error: arith.extf
    %0 = arith.extf %a : f32 to f16
    tt.return
  }
}

// -----
module {
  tt.func @fp_downcast_no_rounding(%a: tensor<16xf32>) {
    // error: rounding mode is required for an fp downcast
    %0 = tt.fp_to_fp %a : tensor<16xf32> -> tensor<16xf8E4M3FN>
    tt.return
  }
}

// -----
module {
  tt.func @bitcast_ptr_to_int(%p: tensor<8x!tt.ptr<f32>>) {
    // error: cannot bitcast a pointer to a non-pointer type
    %0 = tt.bitcast %p : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
    tt.return
  }
}

// -----
module {
  tt.func @bitcast_int_to_ptr(%a: i64) {
    // error: cannot bitcast a pointer to a non-pointer type
    %0 = tt.bitcast %a : i64 -> !tt.ptr<f32>
    tt.return
  }
}

// -----
module {
  tt.func @index_cast_int_to_int(%a: tensor<8xi16>) {
    // error: casts between index and a signless integer
    %0 = arith.index_cast %a : tensor<8xi16> to tensor<8xi64>
    tt.return
  }
}

// -----
module {
  tt.func @bitcast_index(%a: index) {
    // error: casts an integer or float to another of the same width
    %0 = arith.bitcast %a : index to index
    tt.return
  }
}

// -----
module {
  tt.func @split_to_scalars(%a: tensor<2xf32>) {
    // error: splits the minor dimension of 2 into two values of one type
    %0, %1 = tt.split %a : tensor<2xf32> -> f32
    tt.return
  }
}

// -----
module {
  tt.func @range_i64_attrs() {
    // error: attribute 'start' must be an i32 integer
    %0 = tt.make_range {end = 16 : i64, start = 0 : i64} : tensor<16xi32>
    tt.return
  }
}

// -----
module {
  tt.func @trans_i64_order(%a: tensor<4x8xf32>) {
    // error: attribute 'order' must be an array<i32>
    %0 = tt.trans %a {order = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    tt.return
  }
}
