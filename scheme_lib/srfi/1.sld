;; SRFI 1: list library (also (scheme list)).
;;
;; The pairs and first-order operations, the hook hot path (assoc, member, ...), map and
;; for-each, and the procedures that measured faster in Python are native, in (srfi 1
;; core) (harness/scheme/primitives/lists.py, whose docstring has the measurements);
;; the folds, searches, set operations and the deletions that compare elements are here,
;; in Scheme, as chibi-scheme has them. Compiled by harness's own compiler, they count
;; their steps, run in the sandbox and resume a continuation captured inside the
;; procedure they call with nothing written for it. Each builds its result with fresh
;; pairs only (no set-cdr! on a list a re-entered continuation could see again), so a
;; re-entry gives what a fresh run would give; the linear-update (!) variants are the
;; pure ones (SRFI 1 allows it). Orders of the calls of = in the set operations are SRFI
;; 1's reference implementation's.
(define-library (srfi 1)
  (export
   ;; from (srfi 1 core)
   xcons cons* make-list list-tabulate list-copy circular-list iota
   proper-list? circular-list? dotted-list? not-pair? null-list? list=
   cons car cdr set-car! set-cdr! pair? null? list? list length append reverse
   list-tail list-ref memq memv member assq assv assoc map for-each
   caar cadr cdar cddr caaar caadr cadar caddr cdaar cdadr cddar cdddr
   caaaar caaadr caadar caaddr cadaar cadadr caddar cadddr
   cdaaar cdaadr cdadar cdaddr cddaar cddadr cdddar cddddr
   first second third fourth fifth sixth seventh eighth ninth tenth
   car+cdr take drop take-right drop-right take! drop-right! split-at split-at!
   last last-pair length+ concatenate append! concatenate! reverse!
   append-reverse append-reverse! zip unzip1 unzip2 unzip3 unzip4 unzip5
   map! map-in-order alist-cons unfold unfold-right append-map append-map! filter-map
   filter remove partition filter! remove! partition! delete delete!
   ;; written here
   count fold fold-right pair-fold pair-fold-right reduce reduce-right pair-for-each
   find find-tail any every list-index take-while drop-while span break
   take-while! span! break! delete-duplicates delete-duplicates!
   alist-copy alist-delete alist-delete!
   lset<= lset= lset-adjoin lset-union lset-intersection lset-difference lset-xor
   lset-diff+intersection lset-union! lset-intersection! lset-difference! lset-xor!
   lset-diff+intersection!)
  (import (scheme base) (scheme case-lambda) (srfi 1 core) (srfi 1 private) (harness checks))
  (begin
    ;; -- arguments ------------------------------------------------------------------------
    ;; Several lists walked side by side stop at the shortest: each is proper or circular,
    ;; and one of them is not circular.
    (define (check-lists who lists)
      (let loop ((ls lists) (finite #f))
        (cond ((pair? ls)
               (let ((l (car ls)))
                 (cond ((list? l) (loop (cdr ls) #t))
                       ((circular-list? l) (loop (cdr ls) finite))
                       (else (wrong-type who "a proper list" l)))))
              (finite lists)
              (else (error (string-append (symbol->string who) ": all lists are circular"))))))

    ;; The cars of LISTS, or #f when one of them has ended.
    (define (cars lists)
      (let loop ((ls lists) (acc '()))
        (cond ((null? ls) (reverse acc))
              ((pair? (car ls)) (loop (cdr ls) (cons (caar ls) acc)))
              (else #f))))

    (define (cdrs lists) (map cdr lists))

    ;; RESULT when the walk of LST ended at its end (): a procedure the walk called may
    ;; have made the list improper on the way.
    ;; (Syntax: a call in tail position would cost the loops a trampoline.)
    (define-syntax at-end
      (syntax-rules ()
        ((_ who l lst result) (if (null? l) result (wrong-type who "a proper list" lst)))))

    ;; The rows of LISTS (the list of their first elements, of their second, ...), up to
    ;; the shortest.
    (define (rows lists)
      (let loop ((lists lists) (acc '()))
        (let ((row (cars lists)))
          (if row (loop (cdrs lists) (cons row acc)) (reverse acc)))))

;; (= x e) for an element e of LST (in?), or (= e x) (kept?): with eq?, eqv? or
    ;; equal?, the native member, which calls no procedure; else a loop calling = itself
    ;; (measured 1.6x faster than member with a procedure of the program, twice as fast as
    ;; member with = flipped by a lambda).
    (define (in? = x lst)
      (if (or (eq? = equal?) (eq? = eqv?) (eq? = eq?))
          (member x lst =)
          (scan-in? = x lst)))

    (define (scan-in? = x lst)
      (and (pair? lst) (or (= x (car lst)) (scan-in? = x (cdr lst)))))

    (define (kept? = x lst)
      (if (or (eq? = equal?) (eq? = eqv?) (eq? = eq?))
          (member x lst =)
          (scan-kept? = x lst)))

    (define (scan-kept? = x lst)
      (and (pair? lst) (or (= (car lst) x) (scan-kept? = x (cdr lst)))))

    ;; -- folds ----------------------------------------------------------------------------
    (define (count pred lst . lists)
      (check-procedure 'count pred)
      (if (null? lists)
          (let loop ((l (check-list 'count lst)) (n 0))
            (if (pair? l) (loop (cdr l) (if (pred (car l)) (+ n 1) n)) (at-end 'count l lst n)))
          (let ((ls (check-lists 'count (cons lst lists))))
            (if (null? (cdr lists))  ; two lists (see fold)
                (let loop ((a lst) (b (car lists)) (n 0))
                  (if (and (pair? a) (pair? b))
                      (loop (cdr a) (cdr b) (if (pred (car a) (car b)) (+ n 1) n))
                      n))
                (let loop ((rs (rows ls)) (n 0))
                  (if (pair? rs) (loop (cdr rs) (if (apply pred (car rs)) (+ n 1) n)) n))))))

    ;; Two lists are the usual case of several: walked without apply (a recursion through
    ;; the procedure called then takes fewer Python frames a level; see
    ;; tests/scheme/test_c_stack_safety.py).
    (define (fold kons knil lst . lists)
      (check-procedure 'fold kons)
      (if (null? lists)
          (let loop ((l (check-list 'fold lst)) (acc knil))
            (if (pair? l) (loop (cdr l) (kons (car l) acc)) (at-end 'fold l lst acc)))
          (let ((ls (check-lists 'fold (cons lst lists))))
            (if (null? (cdr lists))
                (let loop ((a lst) (b (car lists)) (acc knil))
                  (if (and (pair? a) (pair? b))
                      (loop (cdr a) (cdr b) (kons (car a) (car b) acc))
                      acc))
                (let loop ((rs (rows ls)) (acc knil))
                  (if (pair? rs)
                      (loop (cdr rs) (apply kons (append (car rs) (list acc))))
                      acc))))))

    (define (fold-right kons knil lst . lists)
      (check-procedure 'fold-right kons)
      (if (null? lists)
          (let loop ((l (reverse (check-list 'fold-right lst))) (acc knil))
            (if (pair? l) (loop (cdr l) (kons (car l) acc)) acc))
          (let loop ((rs (reverse (rows (check-lists 'fold-right (cons lst lists)))))
                     (acc knil))
            (if (pair? rs) (loop (cdr rs) (apply kons (append (car rs) (list acc)))) acc))))

    ;; The successive pairs of LISTS as rows (taken before KONS may change them).
    (define (pair-rows who lst lists)
      (if (null? lists)
          (let loop ((l (check-list who lst)) (acc '()))
            (if (pair? l) (loop (cdr l) (cons (list l) acc)) (reverse acc)))
          (let loop ((ls (check-lists who (cons lst lists))) (acc '()))
            (if (cars ls) (loop (cdrs ls) (cons ls acc)) (reverse acc)))))

    (define (pair-fold kons knil lst . lists)
      (check-procedure 'pair-fold kons)
      (let loop ((rs (pair-rows 'pair-fold lst lists)) (acc knil))
        (if (pair? rs) (loop (cdr rs) (apply kons (append (car rs) (list acc)))) acc)))

    (define (pair-fold-right kons knil lst . lists)
      (check-procedure 'pair-fold-right kons)
      (let loop ((rs (reverse (pair-rows 'pair-fold-right lst lists))) (acc knil))
        (if (pair? rs) (loop (cdr rs) (apply kons (append (car rs) (list acc)))) acc)))

    (define (pair-for-each f lst . lists)
      (check-procedure 'pair-for-each f)
      (let loop ((rs (pair-rows 'pair-for-each lst lists)))
        (when (pair? rs)
          (apply f (car rs))
          (loop (cdr rs)))))

    (define (reduce f ridentity lst)
      (check-procedure 'reduce f)
      (if (null? (check-list 'reduce lst))
          ridentity
          (let loop ((l (cdr lst)) (acc (car lst)))
            (if (pair? l) (loop (cdr l) (f (car l) acc)) acc))))

    (define (reduce-right f ridentity lst)
      (check-procedure 'reduce-right f)
      (if (null? (check-list 'reduce-right lst))
          ridentity
          (let ((backwards (reverse lst)))
            (let loop ((l (cdr backwards)) (acc (car backwards)))
              (if (pair? l) (loop (cdr l) (f (car l) acc)) acc)))))

    ;; -- searching -----------------------------------------------------------------------
    ;; A search may walk a circular list (SRFI 1 allows it when it succeeds): it searches a
    ;; fresh list of the elements of its pairs, each once, and finding nothing there is the
    ;; error a walk of a list that is not proper ends in.
    ;; (search-circular WHO ELEMENTS SEARCH LST): SEARCH with ELEMENTS bound to that list.
    ;; (Syntax: a procedure called in tail position would cost the search a trampoline.)
    (define-syntax search-circular
      (syntax-rules ()
        ((_ who elements search lst)
         (if (circular-list? lst)
             (let ((elements (take lst (distinct-pairs lst))))
               (or search (wrong-type who "a proper list" lst)))
             (wrong-type who "a proper list" lst)))))

    ;; How many pairs the circular list LST has.
    (define (distinct-pairs lst)
      (let meet ((slow (cdr lst)) (fast (cddr lst)))  ; Floyd: they meet in the cycle
        (if (eq? slow fast)
            (let* ((cycle (let count ((x (cdr slow)) (n 1))
                            (if (eq? x slow) n (count (cdr x) (+ n 1)))))
                   (lead (let count ((a lst) (b (list-tail lst cycle)) (n 0))
                           (if (eq? a b) n (count (cdr a) (cdr b) (+ n 1))))))
              (+ lead cycle))
            (meet (cdr slow) (cddr fast)))))

    (define (find pred lst)
      (check-procedure 'find pred)
      (if (list? lst)
          (let loop ((l lst))
            (cond ((null? l) #f)
                  ((pred (car l)) (car l))
                  (else (loop (cdr l)))))
          (search-circular 'find elements (find pred elements) lst)))

    (define (find-tail pred lst)
      (check-procedure 'find-tail pred)
      (if (list? lst)
          (let loop ((l lst))
            (cond ((null? l) #f)
                  ((pred (car l)) l)
                  (else (loop (cdr l)))))
          (search-circular 'find-tail elements
                           (let ((i (list-index pred elements))) (and i (list-tail lst i)))
                           lst)))

    ;; (The last call of pred is not a tail call, as SRFI 1 would have it: with one, every
    ;; call of any would go through a trampoline, and a recursion through pred would take
    ;; more Python frames a level.)
    (define (any pred lst . lists)
      (check-procedure 'any pred)
      (cond ((pair? lists)
             (let ((ls (check-lists 'any (cons lst lists))))
               (if (null? (cdr lists))
                   (let loop ((a lst) (b (car lists)))
                     (cond ((not (and (pair? a) (pair? b))) #f)
                           ((pred (car a) (car b)))
                           (else (loop (cdr a) (cdr b)))))
                   (let loop ((ls ls))
                     (let ((row (cars ls)))
                       (and row (or (apply pred row) (loop (cdrs ls)))))))))
            ((list? lst)
             (let loop ((l lst))
               (cond ((null? l) #f)
                     ((pred (car l)))
                     (else (loop (cdr l))))))
            (else (search-circular 'any elements (any pred elements) lst))))

    (define (every pred lst . lists)
      (check-procedure 'every pred)
      (cond ((pair? lists)
             (let ((ls (check-lists 'every (cons lst lists))))
               (if (null? (cdr lists))
                   (let loop ((a lst) (b (car lists)) (last #t))
                     (if (and (pair? a) (pair? b))
                         (let ((v (pred (car a) (car b)))) (and v (loop (cdr a) (cdr b) v)))
                         last))
                   (let loop ((ls ls) (last #t))
                     (let ((row (cars ls)))
                       (if row
                           (let ((v (apply pred row))) (and v (loop (cdrs ls) v)))
                           last))))))
            ((list? lst)
             (let loop ((l lst) (last #t))
               (if (null? l)
                   last
                   (let ((v (pred (car l)))) (if v (loop (cdr l) v) #f)))))
            ;; every element satisfied pred: the walk goes on to the error
            (else (not (search-circular 'every elements (not (every pred elements)) lst)))))

    (define (list-index pred lst . lists)
      (check-procedure 'list-index pred)
      (cond ((pair? lists)
             (let loop ((ls (check-lists 'list-index (cons lst lists))) (i 0))
               (let ((row (cars ls)))
                 (cond ((not row) #f)
                       ((apply pred row) i)
                       (else (loop (cdrs ls) (+ i 1)))))))
            ((list? lst)
             (let loop ((l lst) (i 0))
               (cond ((null? l) #f)
                     ((pred (car l)) i)
                     (else (loop (cdr l) (+ i 1))))))
            (else (search-circular 'list-index elements (list-index pred elements) lst))))

    ;; The leading elements on which pred is true, and the first pair after them.
    (define (split-while who pred lst)
      (check-procedure who pred)
      (let loop ((l (check-list who lst)) (acc '()))
        (if (and (pair? l) (pred (car l)))
            (loop (cdr l) (cons (car l) acc))
            (values (reverse acc) l))))

    (define (take-while pred lst)
      (let-values (((prefix rest) (split-while 'take-while pred lst))) prefix))

    (define (drop-while pred lst)
      (check-procedure 'drop-while pred)
      (let loop ((l (check-list 'drop-while lst)))
        (if (and (pair? l) (pred (car l))) (loop (cdr l)) l)))

    (define (span pred lst) (split-while 'span pred lst))

    (define (break pred lst)
      (check-procedure 'break pred)
      (split-while 'break (lambda (x) (not (pred x))) lst))

    ;; -- deletion ------------------------------------------------------------------------
    ;; The first occurrence of each element: (= earlier later).
    (define delete-duplicates
      (case-lambda
        ((lst) (delete-duplicates lst equal?))
        ((lst =)
         (check-procedure 'delete-duplicates =)
         (check-list 'delete-duplicates lst)
         (or (unique-by-key lst =)  ; eq?, eqv?, equal?: one native pass, a set of keys
             (let loop ((l lst) (kept '()))
               (cond ((null? l) (reverse kept))
                     ((scan-kept? = (car l) kept) (loop (cdr l) kept))
                     (else (loop (cdr l) (cons (car l) kept)))))))))

    ;; -- association lists ---------------------------------------------------------------
    (define (not-alist who alist)
      (wrong-type who "an association list (a list of pairs)" alist))

    (define (alist-copy alist)
      (let loop ((l (check-list 'alist-copy alist)) (acc '()))
        (cond ((null? l) (reverse acc))
              ((pair? (car l)) (loop (cdr l) (cons (cons (caar l) (cdar l)) acc)))
              (else (not-alist 'alist-copy alist)))))

    ;; The entries whose key k has (= key k) false.
    (define alist-delete
      (case-lambda
        ((key alist) (alist-delete key alist equal?))
        ((key alist =)
         (check-procedure 'alist-delete =)
         (or (delete-by-key key alist =)  ; eq?, eqv?, equal?: one native pass
             (let loop ((l (check-alist 'alist-delete alist)) (acc '()))
               (cond ((null? l) (reverse acc))
                     ((= key (caar l)) (loop (cdr l) acc))
                     (else (loop (cdr l) (cons (car l) acc)))))))))

    ;; -- lists as sets -------------------------------------------------------------------
    ;; An element x of the first list is in another list when (= x e) for one of its
    ;; elements e (member's order); an element added to a list is new when (= e x) is
    ;; false for each e already there. The orders are SRFI 1's reference implementation's.
    (define (check-sets who = lists)
      (check-procedure who =)
      (for-each (lambda (l) (check-list who l)) lists)
      lists)

    ;; Every element of A is in B.
    (define (subset? = a b)
      (or (eq? a b)
          (let loop ((a a))
            (or (null? a) (and (in? = (car a) b) (loop (cdr a)))))))

    (define (lset<= = . lists)
      (let loop ((ls (check-sets 'lset<= = lists)))
        (or (not (and (pair? ls) (pair? (cdr ls))))
            (and (subset? = (car ls) (cadr ls)) (loop (cdr ls))))))

    (define (lset= = . lists)
      (let loop ((ls (check-sets 'lset= = lists)))
        (or (not (and (pair? ls) (pair? (cdr ls))))
            (and (subset? = (car ls) (cadr ls))
                 (subset? = (cadr ls) (car ls))
                 (loop (cdr ls))))))

    ;; LST with each element of ELEMENTS not in it yet consed on.
    ;; (Syntax: a procedure called in tail position would cost a trampoline.)
    (define-syntax adjoin
      (syntax-rules ()
        ((_ = lst elements)
         (let loop ((xs elements) (acc lst))
           (cond ((null? xs) acc)
                 ((kept? = (car xs) acc) (loop (cdr xs) acc))
                 (else (loop (cdr xs) (cons (car xs) acc))))))))

    (define (lset-adjoin = lst . elements)
      (check-sets 'lset-adjoin = (list lst))
      (adjoin = lst elements))

    (define (lset-union = . lists)
      (let loop ((ls (check-sets 'lset-union = lists)) (acc '()))
        (cond ((null? ls) acc)
              ((or (null? (car ls)) (eq? (car ls) acc)) (loop (cdr ls) acc))
              ((null? acc) (loop (cdr ls) (car ls)))
              (else (loop (cdr ls) (adjoin = acc (car ls)))))))

    ;; X is in some of LISTS (SOME #t) or in each (#f). Syntax, in? itself for one
    ;; list: a recursion through = then takes fewer Python frames a level.
    (define-syntax in-lists?
      (syntax-rules ()
        ((_ = x lists some)
         (if (null? (cdr lists)) (in? = x (car lists)) (in-several? = x lists some)))))

    (define (in-several? = x lists some)
      (cond ((null? lists) (not some))
            ((in? = x (car lists)) (if some #t (in-several? = x (cdr lists) some)))
            (some (in-several? = x (cdr lists) some))
            (else #f)))

    ;; The elements of LST in some of OTHERS (a non-empty list of lists), and the others,
    ;; as a pair of lists.
    (define (split-by-membership = lst others)
      (let loop ((l lst) (in '()) (out '()))
        (cond ((null? l) (cons (reverse in) (reverse out)))
              ((in-lists? = (car l) others #t) (loop (cdr l) (cons (car l) in) out))
              (else (loop (cdr l) in (cons (car l) out))))))

    (define (lset-intersection = lst . lists)
      (check-sets 'lset-intersection = (cons lst lists))
      (let ((others (delete lst lists eq?)))
        (cond ((null? others) lst)
              ((memq '() others) '())
              (else (let loop ((l lst) (acc '()))
                      (cond ((null? l) (reverse acc))
                            ((in-lists? = (car l) others #f) (loop (cdr l) (cons (car l) acc)))
                            (else (loop (cdr l) acc))))))))

    (define (lset-difference = lst . lists)
      (check-sets 'lset-difference = (cons lst lists))
      (let ((others (filter pair? lists)))
        (cond ((null? others) lst)
              ((memq lst others) '())
              (else (cdr (split-by-membership = lst others))))))

    (define (lset-diff+intersection = lst . lists)
      (check-sets 'lset-diff+intersection = (cons lst lists))
      (let ((others (filter pair? lists)))
        (cond ((null? others) (values lst '()))
              ((memq lst others) (values '() lst))
              (else (let ((split (split-by-membership = lst others)))
                      (values (cdr split) (car split)))))))

    ;; a xor b: (b - a∩b) consed onto a - b, as SRFI 1's reference.
    ;; (Syntax: see adjoin.)
    (define-syntax xor2
      (syntax-rules ()
        ((_ = a b)
         (let* ((split (cond ((null? b) (cons '() a))
                             ((eq? a b) (cons a '()))
                             (else (split-by-membership = a (list b)))))
                (a&b (car split))
                (a-b (cdr split)))
           (cond ((null? a-b) (lset-difference = b a))
                 ((null? a&b) (append b a))
                 (else (let loop ((bs b) (acc a-b))
                         (cond ((null? bs) acc)
                               ((in? = (car bs) a&b) (loop (cdr bs) acc))
                               (else (loop (cdr bs) (cons (car bs) acc)))))))))))

    (define (lset-xor = . lists)
      (let loop ((ls (check-sets 'lset-xor = lists)) (acc '()))
        (cond ((null? ls) acc)
              ((null? acc) (loop (cdr ls) (car ls)))
              (else (loop (cdr ls) (xor2 = acc (car ls)))))))

    ;; -- linear-update variants: the pure ones ---------------------------------------------
    (define take-while! take-while)
    (define span! span)
    (define break! break)
    (define delete-duplicates! delete-duplicates)
    (define alist-delete! alist-delete)
    (define lset-union! lset-union)
    (define lset-intersection! lset-intersection)
    (define lset-difference! lset-difference)
    (define lset-xor! lset-xor)
    (define lset-diff+intersection! lset-diff+intersection)))
