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
