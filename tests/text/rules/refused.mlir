// Modules Triton 3.6 accepts that ctriton refuses on purpose, each with the error that the
// `// refused:` comment names, on the line below it (test_triton_rules checks it;
// scripts/triton_lit.py --src tests/text/rules lists Triton's verdict).

// a splat of a tensor that is not 0-d: Triton has no rule against it, but nothing lowers it
module {
  tt.func @splat_of_tensor(%a: tensor<2xf32>) {
    // refused: splats a scalar (or 0-d tensor)
    %0 = tt.splat %a : tensor<2xf32> -> tensor<4xf32>
    tt.return
  }
}

// -----
// a loop of constant step 0 never ends (newer MLIR refuses it too)
module {
  tt.func @for_step_zero(%n: i32) {
    %c0 = arith.constant 0 : i32
    // refused: constant step operand must be positive, not 0
    scf.for %i = %c0 to %n step %c0 : i32 {
    }
    tt.return
  }
}

// -----
// a tensor of rank 17: ctriton's one limit is CT_MAX_RANK (16) dimensions
module {
  // refused: tensor of rank above 16
  tt.func @rank17(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) {
    tt.return
  }
}

// -----
// a reduction along an axis the operand does not have (Triton's verifier does not look)
module {
  tt.func @reduce_axis(%a: tensor<128xf32>) {
    // refused: axis 1 is out of range for tensor<128xf32>
    %0 = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      tt.reduce.return %z : f32
    }) : (tensor<128xf32>) -> f32
    tt.return
  }
}

// -----
// a histogram into bins that are not a 1-d tensor, a cat into a shape that is not the two
// operands' rows, an atomic whose result is not the pointee: nothing lowers them
module {
  tt.func @histogram_2d(%a: tensor<16xi32>) {
    // refused: counts a 1-d tensor of integers into a 1-d tensor of integer bins
    %0 = tt.histogram %a : tensor<16xi32> -> tensor<2x1xi32>
    tt.return
  }
}

// -----
module {
  tt.func @cat_shape(%a: tensor<2x16xi32>, %b: tensor<2x16xi32>) {
    // refused: concatenates two tensors of one type
    %0 = tt.cat %a, %b : tensor<2x16xi32> -> tensor<4xi32>
    tt.return
  }
}

// -----
module {
  tt.func @rmw_result(%p: !tt.ptr<f32>, %v: f32, %m: i1) {
    // refused: is not the pointee of
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (!tt.ptr<f32>, f32, i1) -> i8
    tt.return
  }
}

// -----
module {
  tt.func @desc_indices(%d: !tt.tensordesc<tensor<16xi8>>, %i: i32) {
    // refused: takes 2 indices for a descriptor of rank 1
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16xi8>> -> tensor<16xi8>
    tt.return
  }
}
