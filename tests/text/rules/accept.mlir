// Modules Triton 3.6 accepts that ctriton's parser or verifier once refused (issue 14).
// test_triton_rules parses each, prints it and parses the print again (the same text);
// scripts/triton_lit.py --src tests/text/rules checks that Triton accepts them too.

// a spin lock: `while tl.atomic_cas(lock, 0, 1) == 1: pass` (tutorial 05's backward)
module {
  tt.func @spin_lock(%lock: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.while : () -> () {
      %old = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
      %busy = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    tt.return
  }
}

// -----
// scf.while whose results are not named
module {
  tt.func @while_unnamed(%n: i32) {
    %c1 = arith.constant 1 : i32
    scf.while (%i = %c1) : (i32) -> i32 {
      %lt = arith.cmpi slt, %i, %n : i32
      scf.condition(%lt) %i : i32
    } do {
    ^bb0(%j: i32):
      %k = arith.addi %j, %c1 : i32
      scf.yield %k : i32
    }
    tt.return
  }
}

// -----
// iter_args(...) -> f32 and scf.if -> i32, without parentheses
module {
  tt.func @arrow_types(%n: i32, %c: i1) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 : i32 {
      %a = arith.addf %acc, %one : f32
      scf.yield %a : f32
    }
    %r = scf.if %c -> i32 {
      scf.yield %c0 : i32
    } else {
      scf.yield %c1 : i32
    }
    tt.return %s : f32
  }
}

// -----
// tt.splat and tt.join of 0-d tensors, tt.unsplat of a 1x1 tensor
module {
  tt.func @zero_d(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<1x1xf32>) {
    %0 = tt.splat %a : tensor<f32> -> tensor<4xf32>
    %1 = tt.join %a, %b : tensor<f32> -> tensor<2xf32>
    %2 = tt.unsplat %c : tensor<1x1xf32>
    tt.return
  }
}

// -----
// elementwise ops (MLIR's Elementwise trait): a scalar operand beside a tensor
module {
  tt.func @elementwise_scalar(%a: tensor<128xi32>, %s: i32, %x: tensor<128xf32>, %y: f32) {
    %0 = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %a, %s : tensor<128xi32>, i32 -> tensor<128xi32>
    %1 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %s : i32 -> i32
    %2 = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<128xf32>, f32) -> tensor<128xf32>
    tt.return
  }
}

// -----
// a descriptor load and store of a block whose leading dimension of 1 is dropped
module {
  tt.func @desc_rank_reduced(%d: !tt.tensordesc<tensor<1x16x16xf32>>, %i: i32) {
    %0 = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x16x16xf32>> -> tensor<16x16xf32>
    tt.descriptor_store %d[%i, %i, %i], %0 : !tt.tensordesc<tensor<1x16x16xf32>>, tensor<16x16xf32>
    tt.return
  }
}

// -----
// tt.gather along an axis, tt.descriptor_gather of 8 rows
module {
  tt.func @gathers(%src: tensor<16x8xf32>, %idx: tensor<4x8xi32>, %d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<8xi32>, %y: i32) {
    %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<16x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    %1 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<8xi32>, i32) -> tensor<8x128xbf16>
    tt.return
  }
}

// -----
// tt.map_elementwise whose body only computes
module {
  tt.func @map_pure(%a: tensor<256xi32>) {
    %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
    ^bb0(%x: i32):
      %y = arith.addi %x, %x : i32
      tt.map_elementwise.return %y : i32
    }) : (tensor<256xi32>) -> tensor<256xi32>
    tt.return
  }
}
