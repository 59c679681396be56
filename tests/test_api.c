/* Every public function declared in rigid.h, called from a translation unit that does not hold
   the implementation: it must compile as C and as C++ and link. */
#include "test.h"

#include <string.h>

static void test_every_contract_function_links(void) {
    rg_result result = RG_ERR_DEGENERATE;
    rg_vec3 a = rg_v3(1, 2, 3), b = rg_v3(-1, 0.5f, 2), lo, hi;
    rg_quat q = rg_quat_from_axis_angle(rg_v3(0, 1, 0), 0.5f);
    rg_mat3 m = rg_mat3_from_quat(q);
    rg_vec3 cloud[8];
    rg_hull *box, *hull;
    rg_manifold manifold;
    rg_world_def wd = rg_world_default_def();
    rg_world *w;
    rg_body_def bd = rg_body_default_def();
    rg_body_id id;
    rg_contact contacts[4];
    rg_world_stats stats;
    int i;
    /* math */
    ENSURE(rg_v3_dot(rg_v3_add(a, b), rg_v3_sub(a, b)) == rg_v3_dot(a, a) - rg_v3_dot(b, b));
    ENSURE(rg_v3_length(rg_v3_normalize(rg_v3_scale(a, 3))) > 0.99f);
    ENSURE(rg_v3_dot(rg_v3_cross(a, b), a) < 1e-5f);
    ENSURE(rg_quat_identity().w == 1);
    ENSURE(rg_v3_length(rg_quat_rotate(rg_quat_normalize(rg_quat_mul(q, rg_quat_conjugate(q))), a)) > 3.7f);
    ENSURE(rg_mat3_identity().m[1][1] == 1);
    ENSURE(rg_mat3_mul(m, rg_mat3_transpose(m)).m[0][0] > 0.999f);
    ENSURE(rg_v3_length(rg_mat3_mul_v3(m, a)) > 3.7f);
    ENSURE(strlen(rg_result_string(RG_ERR_STALE_ID)) > 0);
    /* hulls */
    box = rg_hull_create_box(rg_v3(0.5f, 0.5f, 0.5f), &result);
    ENSURE(box && result == RG_OK);
    for (i = 0; i < 8; ++i) cloud[i] = rg_hull_vertex(box, i);
    hull = rg_hull_create(cloud, 8, &result);
    ENSURE(rg_hull_vertex_count(box) == 8 && rg_hull_edge_count(box) == 12 && rg_hull_face_count(box) == 6);
    ENSURE(rg_hull_volume(box) > 0.99f && rg_hull_centroid(box).x == 0 && rg_hull_inertia(box, 1).m[0][0] > 0);
    rg_hull_destroy(hull);
    /* narrow phase */
    rg_collide_hulls(box, rg_v3(0, 0.9f, 0), rg_quat_identity(), box, rg_v3(0, 0, 0), rg_quat_identity(),
                     0.02f, &manifold);
    /* world and bodies */
    w = rg_world_create(&wd, &result);
    ENSURE(w && result == RG_OK);
    bd.hull = box;
    id = rg_body_create(w, &bd, &result);
    ENSURE(rg_body_is_valid(w, id) && result == RG_OK);
    ENSURE(rg_world_step(w, 1.0f / 60) == RG_OK);
    ENSURE(rg_body_position(w, id).y < 0 && rg_body_orientation(w, id).w == 1);
    ENSURE(rg_body_center_of_mass(w, id).y < 0 && rg_body_linear_velocity(w, id).y < 0);
    ENSURE(rg_body_angular_velocity(w, id).x == 0 && rg_body_mass(w, id) > 999);
    rg_body_aabb(w, id, &lo, &hi);
    ENSURE(rg_body_user_data(w, id) == NULL);
    ENSURE(rg_body_set_transform(w, id, a, q) == RG_OK);
    ENSURE(rg_body_set_linear_velocity(w, id, b) == RG_OK);
    ENSURE(rg_body_set_angular_velocity(w, id, b) == RG_OK);
    ENSURE(rg_body_apply_impulse(w, id, a, a) == RG_OK);
    ENSURE(rg_body_apply_force(w, id, a, a) == RG_OK);
    ENSURE(rg_world_contacts(w, contacts, 4) >= 0);
    stats = rg_world_get_stats(w);
    ENSURE(stats.body_count == 1);
    ENSURE(rg_body_destroy(w, id) == RG_OK);
    rg_world_destroy(w);
    rg_hull_destroy(box);
}

void rg_tests_api(void) {
    RUN_TEST(test_every_contract_function_links);
}
