(define (build n) (if (= n 0) '() (cons n (build (- n 1)))))
(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))
(sum (build 1000000))
