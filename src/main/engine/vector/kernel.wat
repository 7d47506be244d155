;; The vector index's int8 scoring kernel (vector-index.ts): for each of n rows of an int8
;; matrix, the dot product with an int16 query, 32 lanes per iteration with WebAssembly SIMD.
;;
;;   scores(mat, q, out, n, stride): for r in 0..n:
;;     out[r] (i32) = sum over j of mat[r * stride + j] (i8) * q[j] (i16)
;;
;; Two v128 accumulators; each 16-byte chunk of a row is sign-extended i8 -> i16 (low and high
;; halves) and multiplied with the pre-widened query by i32x4.dot_i16x8_s. `stride` is a
;; multiple of 32 (KERNEL_STEP): rows are padded with zeros. The memory is imported from the
;; index's arena. `npm run kernel` compiles this file to kernel-wasm.ts (wabt); a test checks
;; that the two agree.
(module
  (import "env" "mem" (memory 1))
  (func (export "scores")
    (param $mat i32) (param $q i32) (param $out i32) (param $n i32) (param $stride i32)
    (local $r i32) (local $row i32) (local $j i32) (local $qp i32)
    (local $acc0 v128) (local $acc1 v128) (local $chunk v128)
    (local.set $row (local.get $mat))
    (local.set $r (i32.const 0))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $acc1 (local.tee $acc0 (v128.const i32x4 0 0 0 0)))
        (local.set $j (i32.const 0))
        (block $cols_done
          (loop $cols
            (br_if $cols_done (i32.ge_u (local.get $j) (local.get $stride)))
            (local.set $qp (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1))))
            ;; acc0 += bytes j..j+16 of the row
            (local.set $acc0
              (i32x4.add
                (i32x4.dot_i16x8_s
                  (i16x8.extend_low_i8x16_s
                    (local.tee $chunk (v128.load (i32.add (local.get $row) (local.get $j)))))
                  (v128.load (local.get $qp)))
                (local.get $acc0)))
            (local.set $acc0
              (i32x4.add
                (i32x4.dot_i16x8_s
                  (i16x8.extend_high_i8x16_s (local.get $chunk))
                  (v128.load offset=16 (local.get $qp)))
                (local.get $acc0)))
            ;; acc1 += bytes j+16..j+32 of the row
            (local.set $acc1
              (i32x4.add
                (i32x4.dot_i16x8_s
                  (i16x8.extend_low_i8x16_s
                    (local.tee $chunk
                      (v128.load offset=16 (i32.add (local.get $row) (local.get $j)))))
                  (v128.load offset=32 (local.get $qp)))
                (local.get $acc1)))
            (local.set $acc1
              (i32x4.add
                (i32x4.dot_i16x8_s
                  (i16x8.extend_high_i8x16_s (local.get $chunk))
                  (v128.load offset=48 (local.get $qp)))
                (local.get $acc1)))
            (local.set $j (i32.add (local.get $j) (i32.const 32)))
            (br $cols)))
        ;; out[r] = horizontal sum of acc0 + acc1
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (i32.add
            (i32.add
              (i32x4.extract_lane 0 (local.tee $acc0 (i32x4.add (local.get $acc0) (local.get $acc1))))
              (i32x4.extract_lane 1 (local.get $acc0)))
            (i32.add
              (i32x4.extract_lane 2 (local.get $acc0))
              (i32x4.extract_lane 3 (local.get $acc0)))))
        (local.set $row (i32.add (local.get $row) (local.get $stride)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))
)
