;; bytevector <-> string conversion (the kind of bv2string): build a bytevector of UTF-8
;; text, convert it to a string and back many times, comparing the results.
(define (make-text-bytes n)
  (let ((bv (make-bytevector n 0)))
    (do ((i 0 (+ i 1))) ((= i n) bv)
      (bytevector-u8-set! bv i (+ 97 (remainder i 26))))))
(define (round-trips bv times)
  (let loop ((i 0) (ok 0))
    (if (= i times)
        ok
        (let* ((s (utf8->string bv))
               (back (string->utf8 s))
               (part (string->utf8 s 10 (- (string-length s) 10))))
          (loop (+ i 1)
                (+ ok (if (and (equal? back bv) (= (bytevector-length part) (- (bytevector-length bv) 20)))
                          1 0)))))))
(define text-bytes (make-text-bytes 1000))
(round-trips text-bytes 100000)
