/* check_main.c - runs every suite (Check, fork mode). */
#include <stdlib.h>

#include "testutil.h"

int main(void)
{
  SRunner *sr = srunner_create(parse_suite());
  int failed;
  srunner_add_suite(sr, checker_suite());
  srunner_add_suite(sr, robust_suite());
  srunner_add_suite(sr, engine_suite());
  srunner_add_suite(sr, eval_suite());
  srunner_add_suite(sr, search_suite());
  srunner_add_suite(sr, solve_json_suite());
  srunner_add_suite(sr, cli_suite());
  srunner_add_suite(sr, teach_suite());
  srunner_add_suite(sr, fmt_suite());
  srunner_add_suite(sr, ground_suite());
  srunner_add_suite(sr, infix_suite());
  srunner_add_suite(sr, play_suite());
  srunner_add_suite(sr, ggp_suite());
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
